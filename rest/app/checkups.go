package app

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/checkup"
	"github.com/lokal-dev/lokal/tools/model"
)

// The checkups page: the newest completed report with its findings per key, for everyone
// on the project (get_checkup_report); its managers and the workspace's owners run one
// now (run_checkup), as `lokal checkup` does.

// keyFindings are the findings of one key, in the report's order.
type keyFindings struct {
	Namespace, Key string
	Findings       []checkup.Finding
}

// countRow is one line of a summary table.
type countRow struct {
	Name  string
	Count int
}

func (h *handler) checkups(w http.ResponseWriter, r *http.Request) {
	h.checkupsPage(w, r, http.StatusOK, notice{})
}

func (h *handler) checkupsPage(w http.ResponseWriter, r *http.Request, status int, n notice) {
	ctx, id := r.Context(), r.PathValue("project")
	role, err := h.cat.MyRoleOn(ctx, id)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	p, err := projectOf(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
	rep, err := h.cat.GetCheckupReport(ctx, tools.CheckupIn{ProjectArg: tools.ProjectArg{ProjectID: id}, Offset: max(offset, 0)})
	none := model.ErrorCode(err) == model.CodeNotFound // no completed report yet
	if err != nil && !none {
		h.fail(w, r, err)
		return
	}
	data := map[string]any{"Project": p, "Manage": role.Manage, "Notice": n, "None": none}
	if !none {
		var keys []keyFindings
		for _, f := range rep.Findings {
			if len(keys) == 0 || keys[len(keys)-1].Namespace != f.Namespace || keys[len(keys)-1].Key != f.Key {
				keys = append(keys, keyFindings{Namespace: f.Namespace, Key: f.Key})
			}
			k := &keys[len(keys)-1]
			k.Findings = append(k.Findings, f)
		}
		data["Report"], data["Keys"] = rep, keys
		data["ByKind"], data["ByLanguage"] = counted(rep.Summary.ByKind), counted(rep.Summary.ByLanguage)
	}
	h.render(w, r, status, "checkups", data)
}

// counted lists the counts above zero, largest first, then by name.
func counted(m map[string]int) []countRow {
	var out []countRow
	for name, n := range m {
		if n > 0 {
			out = append(out, countRow{name, n})
		}
	}
	slices.SortFunc(out, func(a, b countRow) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		if a.Name < b.Name {
			return -1
		}
		return 1
	})
	return out
}

// runCheckup brings the report up to date now and shows it.
func (h *handler) runCheckup(w http.ResponseWriter, r *http.Request) {
	if _, err := h.cat.RunCheckup(r.Context(), r.PathValue("project"), "editor"); err != nil {
		h.refuseInPlace(w, r, err, "run", func(status int, n notice) { h.checkupsPage(w, r, status, n) })
		return
	}
	http.Redirect(w, r, "/app/p/"+r.PathValue("project")+"/checkups", http.StatusSeeOther)
}
