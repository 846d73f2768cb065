// Package formatstest holds what tests of several packages check of a translation file with
// the tools its format's own ecosystem ships: GNU gettext compiles a PO file the way an app's
// build does, so a test sees which translations an app would get.
package formatstest
