package formats

import (
	"strings"
	"testing"
)

// TestAppleFormatKeysAgree: the same Russian format key with the same forms reads as the
// same ICU value from a .stringsdict, a String Catalog's substitutions, and the XLIFF
// Xcode exports of either (a plural per variable named as the variable, text around it
// kept, zero as =0, a literal '#' and braces quoted), and each is written back as it was.
func TestAppleFormatKeysAgree(t *testing.T) {
	t.Parallel()
	forms := [][2]string{{"zero", "нет файлов"}, {"one", "%d файл #1"}, {"few", "%d файла"}, {"many", "%d файлов"}, {"other", "%d файла"}}
	const format = "Осталось %#@files@ {в} папке"
	const want = "Осталось {files, plural, =0 {нет файлов} one {%d файл '#'1} few {%d файла} many {%d файлов} other {%d файла}} {в} папке"

	var sd strings.Builder
	sd.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">` + "\n")
	sd.WriteString("<plist version=\"1.0\">\n<dict>\n\t<key>k</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>" + format + "</string>\n")
	sd.WriteString("\t\t<key>files</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n")
	for _, f := range forms {
		sd.WriteString("\t\t\t<key>" + f[0] + "</key>\n\t\t\t<string>" + f[1] + "</string>\n")
	}
	sd.WriteString("\t\t</dict>\n\t</dict>\n</dict>\n</plist>\n")

	var xc strings.Builder
	xc.WriteString(`{"sourceLanguage":"en","strings":{"k":{"localizations":{"ru":{"stringUnit":{"state":"translated","value":"` + format + `"},"substitutions":{"files":{"formatSpecifier":"d","variations":{"plural":{`)
	for i, f := range forms {
		if i > 0 {
			xc.WriteString(",")
		}
		xc.WriteString(`"` + f[0] + `":{"stringUnit":{"state":"translated","value":"` + f[1] + `"}}`)
	}
	xc.WriteString(`}}}}}}}},"version":"1.0"}`)

	xliff := func(unit func(cat string) string, formatID string) string {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">` + "\n")
		b.WriteString(`  <file original="a" source-language="en" target-language="ru" datatype="plaintext">` + "\n    <body>\n")
		b.WriteString(`      <trans-unit id="` + formatID + `"><source>` + format + `</source><target>` + format + "</target></trans-unit>\n")
		for _, f := range forms {
			b.WriteString(`      <trans-unit id="` + unit(f[0]) + `"><source>` + f[1] + `</source><target>` + f[1] + "</target></trans-unit>\n")
		}
		b.WriteString("    </body>\n  </file>\n</xliff>\n")
		return b.String()
	}
	files := []struct{ format, data string }{
		{"stringsdict", sd.String()},
		{"xcstrings", xc.String()},
		{"xliff", xliff(func(cat string) string { return "k|==|substitutions.files.plural." + cat }, "k")},
		{"xliff", xliff(func(cat string) string { return "/k:dict/files:dict/" + cat + ":dict/:string" }, "/k:dict/NSStringLocalizedFormatKey:dict/:string")},
	}
	for _, file := range files {
		o := Options{Language: "ru", SourceLanguage: "en"}
		f, err := Decode(file.format, []byte(file.data), o)
		if err != nil {
			t.Fatalf("%s: %v", file.format, err)
		}
		if len(f.Entries) != 1 || f.Entries[0].Values["ru"].Text != want {
			t.Errorf("%s: %#v\nwant %q", file.format, f.Entries, want)
			continue
		}
		entriesRoundTrip(t, file.format, f, o)
		out, err := Encode(file.format, f, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, fm := range forms {
			if !strings.Contains(string(out), ">"+fm[1]+"<") && !strings.Contains(string(out), `"`+fm[1]+`"`) {
				t.Errorf("%s: the form %q is not written back:\n%s", file.format, fm[1], out)
			}
		}
	}
}
