package compose

import (
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/parser"
	"mvdan.cc/sh/v3/syntax"
)

// Image is what the final stage of a Dockerfile tells about the container it makes: who the
// process runs as, which directories the image prepares for it, and how it starts.
type Image struct {
	Path string
	// User is the USER of the final stage ("" when the image runs as root).
	User string
	// UIDs maps the users the stage creates (useradd/adduser) to their numeric uid, "" when
	// the uid is left to the system.
	UIDs map[string]string
	// Owners maps each directory the stage creates (mkdir) to the owner a chown gives it
	// ("" when none does): a fresh named volume mounted there starts with that owner.
	Owners map[string]string
	// Volumes are the VOLUME paths.
	Volumes []string
	// Entrypoint and Cmd are the exec-form arguments; a shell form becomes ["/bin/sh", "-c", text].
	Entrypoint, Cmd []string
	// Healthcheck is the HEALTHCHECK command, nil when the image declares none.
	Healthcheck []string
	// Env holds the ENV values.
	Env map[string]string
}

// ReadDockerfile reads the final stage of the Dockerfile at path.
func ReadDockerfile(path string) (*Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	res, err := parser.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	img := &Image{Path: path}
	for _, n := range res.AST.Children {
		if err := img.apply(n); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n.StartLine, err)
		}
	}
	return img, nil
}

// RunsAsRoot reports whether the container's process runs as root.
func (img *Image) RunsAsRoot() bool {
	return img.User == "" || img.User == "root" || img.User == "0" || strings.HasPrefix(img.User, "0:")
}

// Writable reports whether a fresh named volume mounted at dir is writable by the image's
// user: the image runs as root, or it creates dir and gives it to that user.
func (img *Image) Writable(dir string) bool {
	if img.RunsAsRoot() {
		return true
	}
	owner, made := img.Owners[path.Clean(dir)]
	return made && img.sameUser(owner)
}

func (img *Image) sameUser(owner string) bool {
	user, _, _ := strings.Cut(img.User, ":")
	owner, _, _ = strings.Cut(owner, ":")
	if owner == "" {
		return false
	}
	return owner == user || (img.UIDs[owner] != "" && img.UIDs[owner] == img.UIDs[user]) || img.UIDs[user] == owner || img.UIDs[owner] == user
}

func (img *Image) apply(n *parser.Node) error {
	args := nodeArgs(n)
	switch strings.ToLower(n.Value) {
	case "from":
		// a new stage: only the last one makes the image
		*img = Image{Path: img.Path}
	case "user":
		if len(args) != 1 {
			return fmt.Errorf("USER takes one argument, got %q", args)
		}
		img.User = args[0]
	case "volume":
		img.Volumes = append(img.Volumes, args...)
	case "env":
		if img.Env == nil {
			img.Env = map[string]string{}
		}
		for i := 0; i+1 < len(args); i += 2 {
			img.Env[args[i]] = args[i+1]
		}
	case "entrypoint":
		img.Entrypoint = execForm(n, args)
		img.Cmd = nil // Docker resets CMD when ENTRYPOINT changes
	case "cmd":
		img.Cmd = execForm(n, args)
	case "healthcheck":
		if len(args) > 0 && strings.EqualFold(args[0], "NONE") {
			img.Healthcheck = nil
		} else if len(args) > 1 {
			img.Healthcheck = args[1:] // args[0] is "CMD"
		}
	case "run":
		if !n.Attributes["json"] {
			return img.run(strings.Join(args, " "))
		}
	}
	return nil
}

// nodeArgs lists an instruction's arguments as the parser split them.
func nodeArgs(n *parser.Node) []string {
	var out []string
	for a := n.Next; a != nil; a = a.Next {
		out = append(out, a.Value)
	}
	return out
}

func execForm(n *parser.Node, args []string) []string {
	if n.Attributes["json"] {
		return args
	}
	return []string{"/bin/sh", "-c", strings.Join(args, " ")}
}

// run records the users and directories a RUN command creates.
func (img *Image) run(script string) error {
	calls, err := ShellCalls(script)
	if err != nil {
		return err
	}
	if img.UIDs == nil {
		img.UIDs = map[string]string{}
	}
	if img.Owners == nil {
		img.Owners = map[string]string{}
	}
	for _, c := range calls {
		if len(c) == 0 {
			continue
		}
		switch c[0] {
		case "useradd", "adduser":
			name, uid := userFromArgs(c[1:])
			if name != "" {
				img.UIDs[name] = uid
			}
		case "mkdir":
			for _, a := range c[1:] {
				if !strings.HasPrefix(a, "-") {
					if _, ok := img.Owners[path.Clean(a)]; !ok {
						img.Owners[path.Clean(a)] = ""
					}
				}
			}
		case "chown":
			var ops []string
			for _, a := range c[1:] {
				if !strings.HasPrefix(a, "-") {
					ops = append(ops, a)
				}
			}
			if len(ops) < 2 {
				continue
			}
			for _, dir := range ops[1:] {
				img.Owners[path.Clean(dir)] = ops[0]
			}
		}
	}
	return nil
}

// userFromArgs finds the user name (the last operand) and its --uid/-u of a useradd or
// adduser command line.
func userFromArgs(args []string) (name, uid string) {
	valued := map[string]bool{"-u": true, "--uid": true, "-d": true, "--home": true, "--home-dir": true, "-h": true,
		"-s": true, "--shell": true, "-g": true, "--gid": true, "-G": true, "--groups": true, "-c": true, "--comment": true,
		"--ingroup": true, "-k": true, "--skel": true}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-u" || a == "--uid":
			if i+1 < len(args) {
				uid = args[i+1]
			}
			i++
		case strings.HasPrefix(a, "--uid="):
			uid = strings.TrimPrefix(a, "--uid=")
		case valued[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			name = a
		}
	}
	return name, uid
}

// ShellCalls parses a shell script and lists its simple commands, each as its words; a word
// that is not a plain literal (an expansion) is kept as the script wrote it.
func ShellCalls(script string) ([][]string, error) {
	f, err := syntax.NewParser().Parse(strings.NewReader(script), "")
	if err != nil {
		return nil, err
	}
	var calls [][]string
	printer := syntax.NewPrinter()
	syntax.Walk(f, func(node syntax.Node) bool {
		call, ok := node.(*syntax.CallExpr)
		if !ok {
			return true
		}
		var words []string
		for _, w := range call.Args {
			words = append(words, wordText(printer, w))
		}
		calls = append(calls, words)
		return true
	})
	return calls, nil
}

// wordText is the word's value when it has no expansion, else its source text with the quotes
// of literal parts removed.
func wordText(p *syntax.Printer, w *syntax.Word) string {
	var b strings.Builder
	for _, part := range w.Parts {
		switch x := part.(type) {
		case *syntax.Lit:
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				if lit, ok := q.(*syntax.Lit); ok {
					b.WriteString(lit.Value)
				} else {
					_ = p.Print(&b, q)
				}
			}
		default:
			_ = p.Print(&b, part)
		}
	}
	return b.String()
}

// Flags returns the value of every -name=value argument of cmd (exec form, or the command a
// `sh -c` script execs).
func Flags(cmd []string) (map[string]string, error) {
	args := cmd
	if len(cmd) >= 3 && path.Base(cmd[0]) == "sh" && cmd[1] == "-c" {
		calls, err := ShellCalls(cmd[2])
		if err != nil {
			return nil, err
		}
		args = nil
		for _, c := range calls {
			args = append(args, c...)
		}
		args = append(args, cmd[3:]...)
	}
	out := map[string]string{}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		k, v, ok := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !ok {
			v = "true"
		}
		out[k] = v
	}
	return out, nil
}
