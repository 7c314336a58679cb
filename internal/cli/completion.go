package cli

import (
	"fmt"
	"io"
	"strings"
)

// Bash prints a bash completion script: commands first, then the options of
// the command on the line; anything else completes file names (sources,
// recordings).
func Bash(w io.Writer, prog string, cmds []Command) {
	fn := "_" + strings.ReplaceAll(prog, "-", "_")
	var names []string
	for _, c := range cmds {
		if c.Name != "" {
			names = append(names, c.Name)
		}
	}
	fmt.Fprintf(w, "# bash completion for %s; load with: source <(%s completion bash)\n", prog, prog)
	fmt.Fprintf(w, "%s() {\n", fn)
	fmt.Fprintln(w, `    local cur="${COMP_WORDS[COMP_CWORD]}" cmd="" i`)
	fmt.Fprintln(w, `    for ((i = 1; i < COMP_CWORD; i++)); do`)
	fmt.Fprintf(w, "        case \"${COMP_WORDS[i]}\" in %s) cmd=\"${COMP_WORDS[i]}\"; break ;; esac\n", strings.Join(names, "|"))
	fmt.Fprintln(w, `    done`)
	fmt.Fprintln(w, `    local opts`)
	fmt.Fprintln(w, `    case "$cmd" in`)
	for _, c := range cmds {
		label := c.Name
		if label == "" {
			label = `""`
		}
		fmt.Fprintf(w, "        %s) opts=%q ;;\n", label, strings.Join(optionWords(c), " "))
	}
	fmt.Fprintln(w, `    esac`)
	fmt.Fprintln(w, `    if [[ "$cur" == -* ]]; then`)
	fmt.Fprintln(w, `        COMPREPLY=($(compgen -W "$opts" -- "$cur"))`)
	fmt.Fprintln(w, `    elif [[ -z "$cmd" && $COMP_CWORD -eq 1 ]]; then`)
	fmt.Fprintf(w, "        COMPREPLY=($(compgen -W %q -- \"$cur\") $(compgen -f -- \"$cur\"))\n", strings.Join(names, " "))
	fmt.Fprintln(w, `    else`)
	fmt.Fprintln(w, `        COMPREPLY=($(compgen -f -- "$cur"))`)
	fmt.Fprintln(w, `    fi`)
	fmt.Fprintln(w, `}`)
	fmt.Fprintf(w, "complete -o filenames -F %s %s\n", fn, prog)
}

func optionWords(c Command) []string {
	words := []string{"--help"}
	for _, f := range flags(c.Flags) {
		words = append(words, "--"+f.Name)
	}
	return words
}

// zsh prints a zsh completion function (#compdef) using _arguments.
func zsh(w io.Writer, prog string, cmds []Command) {
	fn := "_" + strings.ReplaceAll(prog, "-", "_")
	fmt.Fprintf(w, "#compdef %s\n# zsh completion for %s; put it in $fpath as _%s, or: source <(%s completion zsh)\n", prog, prog, prog, prog)
	fmt.Fprintf(w, "%s() {\n    local -a commands\n    commands=(\n", fn)
	for _, c := range cmds {
		if c.Name != "" {
			fmt.Fprintf(w, "        %s\n", zshQuote(c.Name+":"+c.Summary))
		}
	}
	fmt.Fprintln(w, "    )")
	fmt.Fprintln(w, `    local cmd=${words[2]}`)
	fmt.Fprintln(w, `    case $cmd in`)
	var def Command
	for _, c := range cmds {
		if c.Name == "" {
			def = c
			continue
		}
		fmt.Fprintf(w, "        %s)\n            shift words; (( CURRENT-- ))\n            _arguments -s %s '*:file:_files' ;;\n", c.Name, zshSpecs(c))
	}
	fmt.Fprintf(w, "        *)\n            _arguments -s %s '1: :{_describe command commands; _files}' '*:file:_files' ;;\n", zshSpecs(def))
	fmt.Fprintln(w, "    esac\n}")
	fmt.Fprintf(w, "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then %s \"$@\"; else compdef %s %s; fi\n", fn, fn, prog)
}

func zshSpecs(c Command) string {
	specs := []string{zshQuote("--help[show this help and exit]")}
	for _, f := range flags(c.Flags) {
		help := strings.NewReplacer("[", "(", "]", ")", ":", " ").Replace(f.Help)
		spec := "--" + f.Name + "[" + help + "]"
		if f.Arg != "" {
			spec = "--" + f.Name + "=[" + help + "]:" + strings.ToLower(f.Arg) + ":"
			if strings.Contains(strings.ToLower(f.Help), "file") || strings.Contains(f.Name, "file") {
				spec += "_files"
			}
		}
		specs = append(specs, zshQuote(spec))
	}
	return strings.Join(specs, " ")
}

// zshQuote single-quotes s for zsh.
func zshQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
