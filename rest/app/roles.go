package app

import (
	"slices"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// What the project page's file forms offer a role, read from the catalogue's MyRole: the
// import refuses the rest all the same.

// importLanguages are the languages the user may import a file of: every one for a
// manager (all is the source's too), else the target languages they edit.
func importLanguages(role tools.MyRole, all []string) []string {
	if role.Manage {
		return all
	}
	return slices.DeleteFunc(slices.Clone(all), func(l string) bool { return !role.Editable[l] })
}

// importApproves reports whether the user may import translations as approved somewhere.
func importApproves(role tools.MyRole) bool {
	if role.Manage {
		return true
	}
	for _, ok := range role.Approvable {
		if ok {
			return true
		}
	}
	return false
}

// importDefaults are the upload form's first fields for a role: a manager's file is of
// the source language and approved; a translator's of their first language, for review.
func importDefaults(role tools.MyRole, f importForm, langs []string) importForm {
	if role.Manage {
		return f
	}
	if mine := importLanguages(role, langs); len(mine) > 0 {
		f.Language = mine[0]
	}
	if !role.Approvable[f.Language] {
		f.Status = model.StatusNeedsReview
	}
	return f
}
