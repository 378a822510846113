package cli

var renderCommand = &command{
	summary: "write a note to stdout for pipes and golden files",
	run: func(c *invocation) error {
		return failf("render is not built yet")
	},
}
