package tools_test

import "github.com/lokal-dev/lokal/tools"

// benchExportIn and benchExportNext are the paging of get_translations, apart so that the
// benchmark runs unchanged against a tree from before pages (one call, no offset).
func benchExportIn(project, format, offset string) tools.GetTranslationsIn {
	return tools.GetTranslationsIn{ProjectArg: tools.ProjectArg{ProjectID: project}, Language: "nb", Format: format, Offset: offset}
}

func benchExportNext(out tools.GetTranslationsOut) (string, bool) {
	if out.NextOffset == nil {
		return "", false
	}
	return *out.NextOffset, true
}
