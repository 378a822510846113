package cli

import (
	"testing"

	"github.com/markii/markii/runtime/signature"
)

// recordingPrompter answers from a list and keeps the questions.
type recordingPrompter struct {
	answers []bool
	asked   []string
}

func (r *recordingPrompter) Ask(q string) (bool, error) {
	r.asked = append(r.asked, q)
	a := r.answers[0]
	r.answers = r.answers[1:]
	return a, nil
}

// TestSignedQuestionsOnlyShow: the terminal question opens with the
// signature status line and is otherwise the question asked; the answer is
// the person's, whatever the status.
func TestSignedQuestionsOnlyShow(t *testing.T) {
	for _, sig := range []signature.Status{
		{},
		{State: signature.Trusted, Principal: "alice@example.org"},
		{State: signature.UnknownKey, Fingerprint: "SHA256:x"},
		{State: signature.Mismatch, Problem: signature.Changed},
	} {
		inner := &recordingPrompter{answers: []bool{true, false}}
		p := signedQuestions{inner, sig}
		yes, _ := p.Ask("Allow?")
		no, _ := p.Ask("Allow all 2?")
		if !yes || no {
			t.Fatalf("%s: answers %v %v", sig, yes, no)
		}
		if inner.asked[0] != sig.Sentence()+"\nAllow?" || inner.asked[1] != sig.Sentence()+"\nAllow all 2?" {
			t.Fatalf("%s: asked %q", sig, inner.asked)
		}
	}
}
