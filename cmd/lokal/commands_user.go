package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
)

func userCommands() []*command {
	return []*command{
		{name: "user passwd", args: "--user U --password-stdin", synopsis: "set a user's password for the editor at /app/",
			about: "Reads the password from stdin (one line; the line break is not part of it), never from the\n" +
				"command line. Stores an argon2id hash and signs the user out of every browser.",
			flags:    []flagDef{req("user", "ID", "user id"), boolean("password-stdin", "read the password from stdin (required)")},
			database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				if !c.in.boolean("password-stdin") {
					return nil, "", fmt.Errorf("give the password on stdin with --password-stdin, never on the command line")
				}
				b, err := io.ReadAll(io.LimitReader(os.Stdin, maxStdinSecret+1))
				if err != nil {
					return nil, "", fmt.Errorf("reading --password-stdin: %w", err)
				}
				if len(b) > maxStdinSecret {
					return nil, "", fmt.Errorf("--password-stdin: stdin holds more than %d bytes", maxStdinSecret)
				}
				pw := strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
				if err := c.cat.SetPassword(ctx, c.in.str("user"), pw); err != nil {
					return nil, "", err
				}
				return map[string]any{"user": c.in.str("user"), "password_set": true}, "password set for user " + c.in.str("user"), nil
			}},
	}
}
