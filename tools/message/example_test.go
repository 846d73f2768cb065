package message_test

import (
	"fmt"

	"github.com/lokal-dev/lokal/tools/message"
)

func ExampleForms() {
	src := message.Parse("{n, plural, one {<b>{name}</b> has # file} other {{name} has # files}}", message.ICU|message.HTML)
	for _, f := range message.Forms(src) {
		var args []string
		for _, a := range f.Args {
			args = append(args, message.Signature(a))
		}
		fmt.Printf("%q args=%v pounds=%d markup=%q\n", f.Path.String(), args, f.Pounds, f.Markup)
	}
	// Output:
	// "" args=[] pounds=0 markup=""
	// "n:one" args=[{name}] pounds=1 markup="<b></b>"
	// "n:other" args=[{name}] pounds=1 markup=""
}

func ExampleDetectSyntax() {
	s := message.DetectSyntax([]string{"Hello {{name}}", "Use { and } to group", "<0>Docs</0>"})
	fmt.Println(s)
	fmt.Println(message.Parse("Use { and } to group", s).Nodes[0].(*message.Text).Value)
	// Output:
	// i18next,react
	// Use { and } to group
}

func ExamplePrintfOrder() {
	for _, v := range []string{"%s has %d files", "%d Dateien hat %s", "%2$d Dateien hat %1$s"} {
		var order []string
		for _, a := range message.PrintfOrder(message.Parse(v, message.Printf)) {
			order = append(order, a.Raw)
		}
		fmt.Println(order)
	}
	// Output:
	// [%s %d]
	// [%d %s]
	// []
}
