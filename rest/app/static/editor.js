// lokal's review page: keyboard shortcuts, QA while typing, saving in place, conflicts, and
// rows changed elsewhere picked up without touching what the reviewer is typing. Without
// this script every form still works as a plain form.
const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? '';
const review = document.getElementById('review');
const live = document.getElementById('live');

const rowOf = (el) => el?.closest?.('article.row') ?? null;
const rows = () => [...document.querySelectorAll('#rows article.row')];
// A row's translation boxes: one textarea, or one per plural or select form.
const boxSel = 'form.target textarea[name="value"], form.target textarea[name="form_text"]';
const boxes = (row) => [...row.querySelectorAll(boxSel)];
const textarea = (row) => boxes(row)[0] ?? null;
const isBox = (t) => !!t?.matches?.(boxSel);
const isEmpty = (row) => boxes(row).every((b) => b.value === '');
const formOf = (row) => row.querySelector('form.target');
// getAttribute: the buttons named "action" shadow form.action.
const actionOf = (form) => form.getAttribute('action');
const baseOf = (row) => actionOf(formOf(row)).replace(/\/save$/, '');

function announce(msg) {
  if (live) live.textContent = msg;
}

// reloadPage shows a row's own page again after a change beside the row; the in-context
// panel cancels the event and reloads its row itself (a reload would lose nothing, but the
// panel tells the site about a revert).
function reloadPage(action) {
  if (document.dispatchEvent(new CustomEvent('lokal:reload', { cancelable: true, detail: { action } }))) location.reload();
}

function el(tag, text, attrs = {}) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

function parseRows(html) {
  const t = document.createElement('template');
  t.innerHTML = html;
  return [...t.content.querySelectorAll('article.row')];
}

function focusRow(row) {
  if (!row) return false;
  const t = textarea(row);
  (t ?? row).focus();
  row.scrollIntoView({ block: 'nearest' });
  return true;
}

function sibling(row, step) {
  const all = rows();
  const i = all.indexOf(row);
  return i < 0 ? null : all[i + step] ?? null;
}

document.addEventListener('focusin', (e) => {
  const r = rowOf(e.target);
  for (const x of rows()) x.classList.toggle('focused', x === r);
});

// --- QA while typing: the server's own checks through /check ------------------------------
async function check(row) {
  // The form's own fields: a plural row's forms are joined into one value on the server.
  const res = await fetch(baseOf(row) + '/check', {
    method: 'POST',
    headers: { Accept: 'application/json', 'X-CSRF-Token': csrf },
    body: new URLSearchParams(new FormData(formOf(row))),
  });
  if (!res.ok) return;
  const out = await res.json();
  const ul = row.querySelector('ul.qa');
  ul.replaceChildren();
  if (out.refused) ul.append(el('li', out.refused, { class: 'finding refused', 'data-kind': 'refused' }));
  for (const f of out.findings) ul.append(el('li', f.message, { class: 'finding', 'data-kind': f.kind }));
  const n = out.findings.length + (out.refused ? 1 : 0);
  row.classList.toggle('has-qa', n > 0);
  let badge = row.querySelector('.badge.qa');
  if (n > 0 && !badge) row.querySelector('.badges').append(badge = el('span', '', { class: 'badge qa' }));
  if (badge) n > 0 ? (badge.textContent = `${n} QA`) : badge.remove();
}

document.addEventListener('input', (e) => {
  if (!isBox(e.target)) return;
  const row = rowOf(e.target);
  if (!row) return;
  row.dataset.dirty = '1';
  row.classList.add('dirty');
  clearTimeout(row.qaTimer);
  row.qaTimer = setTimeout(() => check(row), 200);
});

// --- saving in place ---------------------------------------------------------------------
function replaceRow(row, fresh) {
  row.replaceWith(fresh);
  return fresh;
}

function showError(row, message) {
  const box = row.querySelector('.conflict');
  box.hidden = false;
  box.replaceChildren(el('p', message));
}

function showConflict(row, body) {
  const box = row.querySelector('.conflict');
  const cur = body.current;
  const keep = el('button', 'Save my text over theirs', { type: 'button' });
  const take = el('button', 'Take their version', { type: 'button' });
  box.hidden = false;
  const theirs = el('q', cur.value, { lang: textarea(row).lang, dir: textarea(row).dir });
  const p = el('p', `Their version (${cur.status || 'missing'}, by ${cur.updated_by}): `);
  p.append(theirs);
  box.replaceChildren(el('p', body.message), p, keep, take);
  const adopt = () => {
    formOf(row).elements.version.value = cur.version;
    row.dataset.version = cur.version;
    box.hidden = true;
  };
  keep.addEventListener('click', () => { adopt(); save(row, 'save', false); });
  take.addEventListener('click', async () => {
    adopt();
    if (!row.querySelector('textarea[name="value"]')) {
      // A row of forms is rebuilt from their value by the server.
      const fresh = await fetchRow(row);
      if (fresh) { replaceRow(row, fresh); focusRow(fresh); }
      return;
    }
    textarea(row).value = cur.value;
    delete row.dataset.dirty;
    row.classList.remove('dirty');
    textarea(row).focus();
  });
  keep.focus();
  announce('Conflict: ' + body.message);
}

async function fetchRow(row) {
  const back = encodeURIComponent(location.pathname + location.search);
  const res = await fetch(`${baseOf(row)}/rows?keys=${row.dataset.keyId}&back=${back}`, { headers: { 'X-Lokal-Fragment': '1' } });
  if (!res.ok) return null;
  return parseRows(await res.text())[0] ?? null;
}

// An empty translation is deleted only when the reviewer says so.
function askClear(row) {
  const box = row.querySelector('.conflict');
  const del = el('button', 'Delete the translation', { type: 'button', class: 'danger' });
  const cancel = el('button', 'Keep it and go on typing', { type: 'button' });
  box.hidden = false;
  box.replaceChildren(el('p', 'The translation is empty: saving it deletes the translation.'), del, cancel);
  del.addEventListener('click', () => { box.hidden = true; save(row, 'save', false, { clear: '1' }); });
  cancel.addEventListener('click', () => { box.hidden = true; textarea(row).focus(); });
  cancel.focus();
  announce('The translation is empty: delete it or keep typing');
}

// Approving over QA findings takes a reason, which the server records on the row.
function askOverride(row, body, next) {
  const box = row.querySelector('.conflict');
  const id = 'reason-' + row.dataset.keyId;
  const list = el('ul');
  for (const f of body.findings ?? []) list.append(el('li', f.message));
  const reason = el('textarea', undefined, { id, rows: '2', name: 'reason' });
  const go = el('button', 'Approve over the findings', { type: 'button', class: 'override' });
  const cancel = el('button', 'Cancel', { type: 'button' });
  box.hidden = false;
  box.replaceChildren(el('p', body.message), list, el('label', 'Why approve it as it is?', { for: id }), reason, go, cancel);
  go.addEventListener('click', () => save(row, 'approve', next, { override: '1', reason: reason.value }));
  reason.addEventListener('keydown', (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') { e.preventDefault(); e.stopPropagation(); go.click(); }
  });
  cancel.addEventListener('click', () => { box.hidden = true; textarea(row).focus(); });
  reason.focus();
  announce('Not approved: ' + body.message);
}

async function save(row, action, next, extra = {}) {
  const form = formOf(row);
  if (!form || !textarea(row) || textarea(row).readOnly) return;
  if (isEmpty(row) && !extra.clear) {
    if (action === 'approve') showError(row, 'An empty translation cannot be approved.');
    else askClear(row);
    return;
  }
  const fd = new FormData(form);
  fd.set('action', action);
  for (const [k, v] of Object.entries(extra)) fd.set(k, v);
  let res;
  try {
    res = await fetch(actionOf(form), { method: 'POST', body: new URLSearchParams(fd), headers: { 'X-Lokal-Fragment': '1', 'X-CSRF-Token': csrf } });
  } catch (err) {
    showError(row, 'Not saved: the server did not answer (' + err.message + ')');
    return;
  }
  if (res.ok) {
    const [fresh] = parseRows(await res.text());
    if (!fresh) return;
    replaceRow(row, fresh);
    announce((action === 'approve' ? 'Approved ' : 'Saved ') + fresh.dataset.key);
    document.dispatchEvent(new CustomEvent('lokal:saved', { detail: { row: fresh, action } }));
    if (!next) { focusRow(fresh); return; }
    if (!focusRow(sibling(fresh, 1))) {
      const more = document.querySelector('.pager a[rel="next"]');
      if (more) location.href = more.href;
      else { focusRow(fresh); announce('Approved ' + fresh.dataset.key + '; that was the last row'); }
    }
    return;
  }
  const body = await res.json().catch(() => ({ message: res.statusText }));
  if (res.status === 409 && body.current) showConflict(row, body);
  else if (res.status === 422 && body.findings) askOverride(row, body, next);
  else showError(row, 'Not saved: ' + (body.message || res.statusText));
}

document.addEventListener('submit', (e) => {
  const form = e.target;
  if (!form.classList.contains('target')) return;
  e.preventDefault();
  save(rowOf(form), e.submitter?.value || 'save', false);
});

// --- keyboard --------------------------------------------------------------------------------
// Shortcuts act from the box they belong to: saving and approving from a translation box
// only, posting from a comment box only; moving between rows also from outside any field.
const isField = (t) => !!t?.matches?.('input, textarea, select, [contenteditable]');
document.addEventListener('keydown', (e) => {
  const t = e.target;
  const mod = e.ctrlKey || e.metaKey;
  if (t?.matches?.('form.comment-form textarea')) {
    if (mod && e.key === 'Enter') { e.preventDefault(); postComment(t.form); }
    return;
  }
  const inBox = isBox(t);
  const row = inBox ? rowOf(t) : null;
  if (mod && (e.key === 's' || e.key === 'S')) {
    if (!inBox) return;
    e.preventDefault();
    save(row, 'save', false);
  } else if (mod && e.key === 'Enter') {
    if (!inBox) return;
    e.preventDefault();
    // A translator's role does not approve (the server refuses it too): say so in place.
    if (review?.dataset.approvable === 'false') showError(row, 'Your role does not approve in this language: Ctrl+S saves it for a reviewer.');
    else save(row, 'approve', true);
  } else if (e.altKey && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
    if (!inBox && isField(t)) return;
    e.preventDefault();
    const from = row ?? rowOf(t) ?? document.querySelector('#rows article.row.focused');
    focusRow(from ? sibling(from, e.key === 'ArrowDown' ? 1 : -1) : rows()[0]);
  }
});

// --- comments ----------------------------------------------------------------------------------
async function postComment(form) {
  let note = form.querySelector('.form-error');
  if (!note) form.append(note = el('p', '', { class: 'form-error', role: 'alert', hidden: '' }));
  if (!form.elements.body.value.trim()) { note.hidden = false; note.textContent = 'Write a comment first.'; return; }
  let res;
  try {
    res = await fetch(form.getAttribute('action'), { method: 'POST', body: new URLSearchParams(new FormData(form)), headers: { Accept: 'application/json', 'X-CSRF-Token': csrf } });
  } catch (err) {
    note.hidden = false; note.textContent = 'Not posted: the server did not answer (' + err.message + ')';
    return;
  }
  if (!res.ok) {
    const body = await res.json().catch(() => ({ message: res.statusText }));
    note.hidden = false; note.textContent = 'Not posted: ' + (body.message || res.statusText);
    return;
  }
  announce('Comment added');
  const d = form.closest('details.more');
  if (!d) { reloadPage('comment'); return; }
  await loadDetail(d);
  d.querySelector('form.comment-form textarea')?.focus();
}

document.addEventListener('submit', (e) => {
  if (!e.target.classList.contains('comment-form')) return;
  e.preventDefault();
  postComment(e.target);
});

// --- batch selection -----------------------------------------------------------------------
document.getElementById('select-all')?.addEventListener('change', (e) => {
  for (const c of document.querySelectorAll('input[name="sel"]')) c.checked = e.target.checked;
});

// --- history, comments and flags on demand --------------------------------------------------
document.addEventListener('toggle', async (e) => {
  const d = e.target;
  if (!d.matches?.('details.more') || !d.open || d.dataset.loaded) return;
  await loadDetail(d);
}, true);

async function loadDetail(d) {
  const back = encodeURIComponent(location.pathname + location.search);
  const res = await fetch(d.dataset.src + '&back=' + back, { headers: { 'X-Lokal-Fragment': '1' } });
  if (!res.ok) return;
  d.querySelector('.detail').innerHTML = await res.text();
  d.dataset.loaded = '1';
}

// --- live: rows changed elsewhere ------------------------------------------------------------
if (review) {
  const base = `/app/p/${review.dataset.project}/review/${review.dataset.lang}`;
  let revision = review.dataset.revision;
  let busy = false;
  const poll = async () => {
    if (busy || document.hidden) return;
    busy = true;
    try {
      const r = await fetch(base + '/revision', { headers: { Accept: 'application/json' } });
      if (!r.ok) return;
      const now = String((await r.json()).revision);
      if (now === revision) return;
      const ids = rows().map((x) => x.dataset.keyId);
      if (ids.length === 0) { revision = now; return; }
      const back = encodeURIComponent(location.pathname + location.search);
      const res = await fetch(`${base}/rows?keys=${ids.join(',')}&back=${back}`, { headers: { 'X-Lokal-Fragment': '1' } });
      if (!res.ok) return;
      revision = res.headers.get('X-Lokal-Revision') ?? now;
      let changed = 0;
      for (const fresh of parseRows(await res.text())) {
        const old = document.getElementById(fresh.id);
        if (!old || old.dataset.version === fresh.dataset.version) continue;
        changed++;
        if (old.dataset.dirty) {
          // The reviewer is typing here: keep their text; saving will show both versions.
          const box = old.querySelector('.conflict');
          box.hidden = false;
          box.replaceChildren(el('p', 'This row was changed elsewhere while you were typing; saving will show both versions.'));
          continue;
        }
        const hadFocus = old.contains(document.activeElement);
        const wasOpen = old.querySelector('details.more')?.open;
        old.replaceWith(fresh);
        if (wasOpen) fresh.querySelector('details.more').open = true;
        if (hadFocus) focusRow(fresh);
      }
      if (changed) announce(`${changed} row${changed > 1 ? 's' : ''} changed elsewhere and updated`);
    } catch {
      // The next poll tries again.
    } finally {
      busy = false;
    }
  };
  setInterval(poll, Number(review.dataset.poll || 2000));
}

// --- per-row help: memory and AI suggestions, the source, placeholders, revert ---------------
// The row a button of the panel belongs to: the panel is inside its row on the queue and
// beside the only row on a row's own page.
const panelRow = (x) => rowOf(x) ?? rows()[0] ?? null;

// useText puts a suggestion into the row's box; it is saved only when the reviewer saves.
// A row edited as fields takes the suggestion cut into fields by the server (fields: field
// key to text), each form its own form's text; a field the suggestion has no text for keeps
// what it has.
function useText(row, value, fields) {
  const t = row?.querySelector('form.target textarea[name="value"]');
  if (!t) {
    let map = null;
    try { map = fields ? JSON.parse(fields) : null; } catch { map = null; }
    const boxes = [...(row?.querySelectorAll('form.target textarea[name="form_text"]') ?? [])];
    if (!map || boxes.length === 0 || boxes[0].readOnly) {
      announce('This suggestion does not fit the fields of this row');
      return;
    }
    let n = 0;
    for (const b of boxes) {
      if (b.dataset.key in map) { b.value = map[b.dataset.key]; n++; }
    }
    if (n === 0) { announce('This suggestion does not fit the fields of this row'); return; }
    boxes[0].dispatchEvent(new Event('input', { bubbles: true }));
    boxes[0].focus();
    announce(`Put into ${n} field${n > 1 ? 's' : ''}; save to keep it`);
    return;
  }
  if (t.readOnly) return;
  t.value = value;
  t.dispatchEvent(new Event('input', { bubbles: true }));
  t.focus();
  announce('Put into the box; save to keep it');
}

// copyForm puts the source's text for one field (its form, or the source's other) into it.
function copyForm(b) {
  const box = document.getElementById(b.dataset.field);
  if (!box || box.readOnly) return;
  box.value = b.dataset.value;
  box.dispatchEvent(new Event('input', { bubbles: true }));
  box.focus();
  announce('Copied the source into the field; save to keep it');
}

async function askAI(b) {
  const row = panelRow(b);
  const out = b.closest('.help').querySelector('.ai-out');
  b.disabled = true;
  out.replaceChildren(el('p', 'Asking the AI…'));
  try {
    const res = await fetch(b.dataset.src, {
      method: 'POST',
      headers: { Accept: 'application/json', 'X-CSRF-Token': csrf },
      body: new URLSearchParams({ ns: row.dataset.ns, key: row.dataset.key }),
    });
    const body = await res.json().catch(() => ({ message: res.statusText }));
    if (!res.ok) {
      out.replaceChildren(el('p', 'No AI suggestion: ' + (body.message || res.statusText), { class: 'form-error', role: 'alert' }));
      return;
    }
    const box = textarea(row);
    const p = el('p', 'AI suggestion: ', { class: 'ai-suggestion' });
    const use = el('button', 'Use', { type: 'button', class: 'use', 'data-value': body.value });
    if (body.fields) use.dataset.fields = JSON.stringify(body.fields);
    p.append(el('q', body.value, { lang: box?.lang ?? '', dir: box?.dir ?? 'auto' }), ' ', use);
    out.replaceChildren(p);
    announce('AI suggestion ready');
  } catch (err) {
    out.replaceChildren(el('p', 'No AI suggestion: the server did not answer (' + err.message + ')', { class: 'form-error', role: 'alert' }));
  } finally {
    b.disabled = false;
  }
}

document.addEventListener('click', (e) => {
  const b = e.target.closest?.('button');
  if (!b) return;
  if (b.matches('.memory .use, .ai-out .use, .copy-source')) useText(panelRow(b), b.dataset.value, b.dataset.fields);
  else if (b.matches('.copy-form')) copyForm(b);
  else if (b.matches('.ai-suggest')) askAI(b);
});

// Ctrl+Shift+P in a translation box inserts, at the cursor, the source's first piece of
// syntax the box has fewer of than the source (the server lists them from the message
// model's spans).
function insertPlaceholder(box) {
  const row = rowOf(box);
  let list = [];
  try { list = JSON.parse(row?.querySelector('.source .text')?.dataset.placeholders || '[]'); } catch { return; }
  const count = (s, sub) => s.split(sub).length - 1;
  const need = {};
  for (const p of list) {
    need[p] = (need[p] ?? 0) + 1;
    if (count(box.value, p) < need[p]) {
      box.setRangeText(p, box.selectionStart, box.selectionEnd, 'end');
      box.dispatchEvent(new Event('input', { bubbles: true }));
      announce('Inserted ' + p);
      return;
    }
  }
  announce(list.length ? 'The box has every placeholder of the source' : 'The source has no placeholders');
}

document.addEventListener('keydown', (e) => {
  if (!(e.ctrlKey || e.metaKey) || !e.shiftKey || (e.key !== 'P' && e.key !== 'p')) return;
  if (!isBox(e.target) || e.target.readOnly) return;
  e.preventDefault();
  insertPlaceholder(e.target);
});

// Reverting to a history entry answers the row as it is then.
document.addEventListener('submit', async (e) => {
  const form = e.target;
  if (!form.classList.contains('revert-form')) return;
  const row = panelRow(form);
  if (!row) return;
  e.preventDefault();
  let note = form.querySelector('.form-error');
  if (!note) form.append(note = el('p', '', { class: 'form-error', role: 'alert', hidden: '' }));
  let res;
  try {
    res = await fetch(actionOf(form), { method: 'POST', body: new URLSearchParams(new FormData(form)), headers: { 'X-Lokal-Fragment': '1', 'X-CSRF-Token': csrf } });
  } catch (err) {
    note.hidden = false; note.textContent = 'Not reverted: the server did not answer (' + err.message + ')';
    return;
  }
  if (!res.ok) {
    const body = await res.json().catch(() => ({ message: res.statusText }));
    note.hidden = false; note.textContent = 'Not reverted: ' + (body.message || res.statusText);
    return;
  }
  const [fresh] = parseRows(await res.text());
  if (!fresh) return;
  if (!rowOf(form)) { reloadPage('revert'); return; } // a row's own page: the panel is beside the row
  replaceRow(row, fresh);
  const d = fresh.querySelector('details.more');
  if (d) d.open = true; // loads the panel again, with the revert in the history
  focusRow(fresh);
  announce('Reverted ' + fresh.dataset.key);
});
