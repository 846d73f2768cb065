// lokal's review-in-context panel: a popup a site in edit mode opens. It speaks with the
// page that opened it by postMessage, to and from the one origin the server checked
// (data-origin, absent when the origin is not authorized: then it listens to nothing).
// Messages carry keys and texts only; every read and write is this page's own, with its
// session on lokal's origin. The row itself is the review row, run by editor.js.
const root = document.getElementById('incontext');
const origin = root?.dataset.origin ?? '';
const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? '';
const project = root?.dataset.project ?? '';
const statusEl = document.getElementById('ic-status');
const panel = document.getElementById('panel');
const overflow = document.getElementById('overflow');
const langSel = document.getElementById('lang');
const keysBox = document.getElementById('page-keys');
const keyList = document.getElementById('page-key-list');

let lang = root?.dataset.lang ?? '';
let current = null; // {ns, key, text}
let pageKeys = []; // [{namespace, key, source, position}]
let measureID = 0;

const base = () => `/app/p/${project}/incontext/${lang}`;
const say = (msg) => { if (statusEl) statusEl.textContent = msg; };
const str = (v, max) => (typeof v === 'string' ? v.slice(0, max) : '');
const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

// post sends a message to the page that opened the panel, at its origin only.
function post(msg) {
  if (window.opener && !window.opener.closed) window.opener.postMessage({ lokal: 1, ...msg }, origin);
}

// context keeps the fields of a message's context the catalogue records, typed.
function context(c) {
  c = c && typeof c === 'object' ? c : {};
  return { url: str(c.url, 2000), title: str(c.title, 300), role: str(c.role, 20), before: str(c.before, 120),
    after: str(c.after, 120), width: num(c.width), box: num(c.box), position: Math.trunc(num(c.position)) };
}

async function postJSON(path, body) {
  const res = await fetch(base() + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRF-Token': csrf },
    body: JSON.stringify({ origin, ...body }),
  });
  const out = await res.json().catch(() => ({ message: res.statusText }));
  if (!res.ok) throw new Error(out.message || res.statusText);
  return out;
}

// loadRow shows one key's row; its value and status come with it for the `saved` message.
async function loadRow(ns, key, text) {
  const res = await fetch(`${base()}/row?ns=${encodeURIComponent(ns)}&key=${encodeURIComponent(key)}`, { headers: { 'X-Lokal-Fragment': '1' } });
  if (!res.ok) {
    const out = await res.json().catch(() => ({ message: res.statusText }));
    say('Cannot show ' + ns + ' · ' + key + ': ' + (out.message || res.statusText));
    return null;
  }
  panel.innerHTML = await res.text();
  // When the row showed, for the benchmark of opening a key (Alt+click to row).
  try { performance.mark('lokal:row', { detail: key }); } catch { /* old browser */ }
  current = { ns, key, text };
  overflow.hidden = true;
  say(ns + ' · ' + key);
  document.getElementById('read-only').hidden = !!panel.querySelector('form.target textarea:not([readonly])');
  markCurrent();
  return panel.querySelector('.incontext-row');
}

async function open(m) {
  const ns = str(m.ns, 200) || root.dataset.ns;
  const key = typeof m.key === 'string' ? m.key.slice(0, 500) : null;
  const text = str(m.text, 10000);
  if (!ns || (!key && !text)) return;
  if (typeof m.lang === 'string' && m.lang !== lang && [...langSel.options].some((o) => o.value === m.lang)) setLang(m.lang);
  say('Finding the key…');
  let out;
  try {
    out = await postJSON('/open', { ns, key, text, context: context(m.context) });
  } catch (err) {
    say('Not opened: ' + err.message);
    return;
  }
  const row = await loadRow(out.namespace, out.key, text);
  row?.querySelector('textarea:not([readonly])')?.focus();
}

async function seen(m) {
  const ns = str(m.ns, 200) || root.dataset.ns;
  if (!ns || !Array.isArray(m.items)) return;
  const items = m.items.slice(0, 500).map((it) => ({
    key: typeof it?.key === 'string' ? it.key.slice(0, 500) : null, text: str(it?.text, 10000), context: context(it?.context),
  }));
  let out;
  try {
    out = await postJSON('/seen', { ns, items });
  } catch (err) {
    say('The page\'s keys were not read: ' + err.message);
    return;
  }
  pageKeys = out.keys ?? [];
  keyList.replaceChildren(...pageKeys.map((k, i) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.i = String(i);
    b.textContent = `${k.source} (${k.namespace} · ${k.key})`;
    li.append(b);
    return li;
  }));
  keysBox.hidden = pageKeys.length === 0;
  markCurrent();
}

function markCurrent() {
  const i = currentIndex();
  for (const li of keyList.children) li.classList.toggle('current', li.firstChild?.dataset.i === String(i));
}

const currentIndex = () => (current ? pageKeys.findIndex((k) => k.namespace === current.ns && k.key === current.key) : -1);

function walk(step) {
  if (pageKeys.length === 0) return;
  const i = currentIndex();
  const next = i < 0 ? (step > 0 ? 0 : pageKeys.length - 1) : (i + step + pageKeys.length) % pageKeys.length;
  const k = pageKeys[next];
  loadRow(k.namespace, k.key, k.source);
}

function measured(m) {
  if (m.id !== measureID) return;
  overflow.hidden = m.fits !== false;
  overflow.textContent = `This translation would overflow its box on the page (${Math.round(num(m.width))} px in ${Math.round(num(m.box))} px).`;
}

// After a save or a revert the row is read again (its history too) and the site told.
async function afterChange() {
  if (!current) return;
  const row = await loadRow(current.ns, current.key, current.text);
  if (!row) return;
  post({ type: 'saved', ns: current.ns, key: current.key, text: current.text, lang, value: row.dataset.value, status: row.dataset.status });
  row.querySelector('textarea:not([readonly])')?.focus();
}

function setLang(l) {
  lang = l;
  langSel.value = l;
  const u = new URL(location.href);
  u.pathname = base();
  history.replaceState(null, '', u);
}

if (root && origin && window.opener) {
  window.addEventListener('message', (e) => {
    // The page that opened the panel, at the origin the server checked: nothing else.
    if (e.origin !== origin || !window.opener || e.source !== window.opener) return;
    const m = e.data;
    if (!m || typeof m !== 'object' || m.lokal !== 1) return;
    if (m.type === 'open') open(m);
    else if (m.type === 'seen') seen(m);
    else if (m.type === 'measured') measured(m);
  });
  document.addEventListener('lokal:saved', afterChange);
  document.addEventListener('lokal:reload', (e) => {
    e.preventDefault();
    if (e.detail?.action === 'revert') afterChange();
    else if (current) loadRow(current.ns, current.key, current.text);
  });
  // While typing, the page measures the draft in the text's own box.
  let timer;
  document.addEventListener('input', (e) => {
    if (!current || !e.target.matches?.('#panel form.target textarea')) return;
    clearTimeout(timer);
    timer = setTimeout(() => post({ type: 'measure', id: ++measureID, text: current.text, value: e.target.value }), 250);
  });
  langSel.addEventListener('change', () => {
    setLang(langSel.value);
    if (current) loadRow(current.ns, current.key, current.text);
  });
  document.getElementById('next-key').addEventListener('click', () => walk(1));
  document.getElementById('prev-key').addEventListener('click', () => walk(-1));
  keyList.addEventListener('click', (e) => {
    const b = e.target.closest?.('button[data-i]');
    const k = b && pageKeys[Number(b.dataset.i)];
    if (k) loadRow(k.namespace, k.key, k.source);
  });
  post({ type: 'ready' });
} else if (root && origin) {
  say('Open this panel from the site: turn on edit mode there (Alt+Shift+L) and Alt+click a text.');
}
