/*! lokal Embed script: swaps a page's text in place for the visitor's language.
 * Plain JavaScript, no build step. It changes nodeValue and attribute values only, never
 * inserts HTML, never evals, and leaves the page as it was when anything fails. */
(function () {
  'use strict';
  var W = window, D = document;
  var warned = false;
  function warn(msg) {
    if (warned) return;
    warned = true;
    try { console.warn('lokal: ' + msg); } catch (e) { /* no console */ }
  }
  // guard runs fn so that nothing it throws reaches the page.
  function guard(fn) {
    return function () {
      try { return fn.apply(this, arguments); } catch (e) { warn(e && e.message || 'error'); }
    };
  }

  var SKIP = 'script,style,noscript,code,pre,textarea,template,svg,[translate="no"],.notranslate,[data-lokal-ui]';
  var ATTRS = ['placeholder', 'title', 'alt', 'aria-label', 'value'];
  var BUTTON_TYPES = { button: 1, submit: 1, reset: 1 };
  var LETTER = /[A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF\u0590-\u06FF\u0900-\u0DFF\u0E00-\u0EFF\u1100-\u11FF\u3040-\u30FF\u3400-\u9FFF\uAC00-\uD7AF]/;

  function store(kind) {
    try { var s = W[kind]; s.getItem('x'); return s; } catch (e) { return null; }
  }
  var session = store('sessionStorage'), local = store('localStorage');
  function get(s, k) { try { return s ? s.getItem(k) : null; } catch (e) { return null; } }
  function put(s, k, v) { try { if (s) s.setItem(k, v); } catch (e) { /* full or denied */ } }

  function lower(c) { return String(c || '').toLowerCase(); }
  function base(c) { return lower(c).split('-')[0]; }

  // request fetches base+path and resolves with the parsed JSON (or null for no body);
  // any failure, 4xx or 5xx included, rejects. Bodies go as text/plain so that no
  // preflight is needed.
  function request(url, body) {
    var init = { method: body === undefined ? 'GET' : 'POST', credentials: 'omit', mode: 'cors' };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { 'Content-Type': 'text/plain' };
      if (init.body.length < 60000) init.keepalive = true;
    }
    return fetch(url, init).then(function (r) {
      if (r.ok) return r.status === 204 ? null : r.json();
      var e = new Error(url.replace(/\?.*/, '') + ' answered ' + r.status);
      e.status = r.status;
      return r.json().then(function (b) { e.body = b; throw e; }, function () { throw e; });
    });
  }

  var tag = D.currentScript;
  if (!tag || !tag.getAttribute('data-lokal-token')) tag = D.querySelector('script[data-lokal-token]');
  if (!tag) return;
  var token = tag.getAttribute('data-lokal-token');
  var src = tag.src || '';
  var api = src.replace(/\/embed(\.[\w-]+)?\.js(\?.*)?(#.*)?$/, '');
  if (!token || !api || api === src) { warn('the script tag needs src=".../embed.js" and data-lokal-token'); return; }
  var ns = tag.getAttribute('data-lokal-namespace') || 'page';
  var forced = tag.getAttribute('data-lokal-lang');
  var html = D.documentElement;
  var pageLang = html.getAttribute('lang') || '';

  var projectId, info, dict = null, chosen = null;
  var shown = false, marked = null; // a text is shown translated from dict; the lang mark() set
  var textOrig = new WeakMap(), textMine = new WeakMap(); // text node -> authored text, text we set
  var attrState = new WeakMap(); // element -> { attr: [authored, ours] }
  var observer = null;

  // --- choosing the language -------------------------------------------------------------
  function enabled(code) {
    var list = info.enabled_languages || [], i;
    for (i = 0; i < list.length; i++) if (lower(list[i]) === lower(code)) return list[i];
    for (i = 0; i < list.length; i++) if (lower(list[i]) === base(code)) return list[i];
    return null;
  }
  function choose() {
    var c = forced && enabled(forced);
    if (c) return c;
    c = get(local, 'lokal:lang:' + projectId);
    if (c && enabled(c)) return enabled(c);
    var prefs = navigator.languages || [navigator.language];
    for (var i = 0; i < prefs.length; i++) {
      c = prefs[i] && enabled(prefs[i]);
      if (c) return c;
    }
    return (pageLang && enabled(pageLang)) || info.source_language;
  }
  function pageIs(code) { return pageLang ? base(pageLang) === base(code) : base(info.source_language) === base(code); }

  // --- swapping ---------------------------------------------------------------------------
  function norm(s) { return s.replace(/\s+/g, ' ').trim(); }
  function lookup(text) {
    if (!dict) return null;
    var t = text.trim();
    if (!t) return null;
    if (Object.prototype.hasOwnProperty.call(dict, t)) return dict[t];
    var n = norm(t);
    return Object.prototype.hasOwnProperty.call(dict, n) ? dict[n] : null;
  }
  function skipped(el) {
    return !el || el.nodeType !== 1 || el.isContentEditable || !!el.closest(SKIP);
  }

  // swapText sets a text node to the translation of its authored text, keeping the
  // whitespace around it, or back to the authored text.
  function swapText(node) {
    var cur = node.nodeValue;
    var orig = textOrig.get(node);
    if (orig === undefined || cur !== textMine.get(node)) {
      orig = cur; // first sight, or the page changed it since: this is the authored text
      textOrig.set(node, orig);
    }
    var tr = lookup(orig), want = orig;
    if (tr !== null) {
      shown = true;
      var t = orig.trim();
      want = t === orig ? tr : orig.slice(0, orig.indexOf(t)) + tr + orig.slice(orig.indexOf(t) + t.length);
    } else {
      miss(orig);
    }
    if (cur !== want) node.nodeValue = want;
    textMine.set(node, want);
  }

  function swapAttrs(el) {
    var st = attrState.get(el);
    for (var i = 0; i < ATTRS.length; i++) {
      var a = ATTRS[i];
      if (a === 'value' && !(el.tagName === 'INPUT' && BUTTON_TYPES[lower(el.getAttribute('type'))])) continue;
      var cur = el.getAttribute(a);
      if (cur === null) continue;
      if (!st) attrState.set(el, st = {});
      var s = st[a];
      if (!s || cur !== s[1]) s = st[a] = [cur, cur];
      var tr = lookup(s[0]), want = tr !== null ? tr : s[0];
      if (tr === null) miss(s[0]); else shown = true;
      s[1] = want;
      if (cur !== want) el.setAttribute(a, want);
    }
  }

  var ATTR_SEL = '[placeholder],[title],[alt],[aria-label],input[value]';

  // swapTree swaps every text node and attribute under root in one pass.
  function swapTree(root) {
    if (root.nodeType === 3) {
      if (root.nodeValue.trim() && !skipped(root.parentNode)) swapText(root);
      return;
    }
    if (root.nodeType !== 1 || skipped(root)) return;
    var w = D.createTreeWalker(root, 4), n, i, texts = []; // SHOW_TEXT
    while ((n = w.nextNode())) texts.push(n);
    var skip = new Map(); // parent element -> skipped, so each parent is asked once
    for (i = 0; i < texts.length; i++) {
      n = texts[i];
      if (!n.nodeValue.trim()) continue;
      var p = n.parentNode, sk = skip.get(p);
      if (sk === undefined) skip.set(p, sk = skipped(p));
      if (!sk) swapText(n);
    }
    var els = root.querySelectorAll(ATTR_SEL);
    if (root.matches(ATTR_SEL)) swapAttrs(root);
    for (i = 0; i < els.length; i++) if (!skipped(els[i])) swapAttrs(els[i]);
  }

  // onMutations swaps what the page added or changed; the observer sees its own changes
  // too, and recognizes them by the value it set.
  function onMutations(records) {
    for (var i = 0; i < records.length; i++) {
      var r = records[i];
      if (r.type === 'childList') {
        for (var j = 0; j < r.addedNodes.length; j++) {
          var n = r.addedNodes[j];
          if (n.parentNode) swapTree(n);
        }
      } else if (r.type === 'characterData') {
        var t = r.target;
        if (t.parentNode && t.nodeValue !== textMine.get(t) && t.nodeValue.trim() && !skipped(t.parentNode)) swapText(t);
      } else if (r.type === 'attributes') {
        var el = r.target, st = attrState.get(el), s = st && st[r.attributeName];
        if ((!s || el.getAttribute(r.attributeName) !== s[1]) && !skipped(el)) swapAttrs(el);
      }
    }
    mark();
    flushSoon();
  }

  // mark sets <html lang> to the chosen language only once a text of the page is shown in
  // it: with an empty dictionary (a new namespace) the text stays in the page's language,
  // and a screen reader must read it so. Otherwise lang is the site's own.
  // Only a change is written, so a page's own later lang is left alone.
  function mark() {
    var want = chosen && shown && !pageIs(chosen) ? chosen : '';
    if (want === marked) return;
    marked = want;
    if (want) html.setAttribute('lang', want);
    else if (pageLang) html.setAttribute('lang', pageLang);
    else html.removeAttribute('lang');
  }

  function observe() {
    if (observer || !W.MutationObserver) return;
    observer = new MutationObserver(guard(onMutations));
    observer.observe(D.body, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ATTRS });
  }

  // apply swaps the whole page to the dictionary d of language code.
  function apply(d, code) {
    var t0 = W.performance && performance.now();
    if (observer) onMutations(observer.takeRecords());
    dict = d;
    chosen = code;
    shown = false;
    swapTree(D.body);
    mark();
    if (observer) observer.takeRecords(); // our own changes
    observe();
    flushSoon();
    // The swap's duration, for site owners' tools (and the benchmark).
    try { performance.measure('lokal:swap', { start: t0 }); } catch (e) { /* old browser */ }
  }

  function load(code) {
    var url = api + '/api/' + encodeURIComponent(projectId) + '/dictionary/' + encodeURIComponent(code) + '/' +
      encodeURIComponent(ns) + (pageIs(code) ? '?src=0' : '');
    return request(url)['catch'](function (e) {
      // A namespace nothing was harvested into yet reads as empty, so harvesting starts.
      if (e.status === 404 && e.body && /^namespace /.test(e.body.message || '')) return {};
      throw e;
    }).then(function (d) {
      if (!d || typeof d !== 'object' || Array.isArray(d)) throw new Error('the dictionary is not a JSON object');
      apply(d, code);
    });
  }

  // --- harvesting -------------------------------------------------------------------------
  var queue = [], queued = {}, timer = 0, sent = {};
  try { sent = JSON.parse(get(session, 'lokal:sent:' + ns) || '{}') || {}; } catch (e) { sent = {}; }
  function harvesting() {
    return info && info.capabilities && info.capabilities.jit_harvest && pageIs(info.source_language);
  }
  function miss(text) {
    if (!harvesting()) return;
    var s = norm(text);
    if (s.length < 2 || s.length > 5000 || !LETTER.test(s) || sent[s] || queued[s]) return;
    queued[s] = 1;
    queue.push(s);
  }
  function flushSoon() {
    if (!queue.length || timer) return;
    timer = setTimeout(guard(flush), 1500);
  }
  function flush() {
    timer = 0;
    var batch = queue.splice(0, 50);
    if (!batch.length) return;
    for (var i = 0; i < batch.length; i++) { sent[batch[i]] = 1; delete queued[batch[i]]; }
    try { put(session, 'lokal:sent:' + ns, JSON.stringify(sent)); } catch (e) { /* too big */ }
    request(api + '/api/embed/' + encodeURIComponent(projectId) + '/harvest', { strings: batch })['catch'](function (e) { warn(e.message); });
    flushSoon();
  }

  // --- the switcher -----------------------------------------------------------------------
  function languageName(code) {
    var n = info.language_names && info.language_names[code];
    if (n) return n;
    try { return new Intl.DisplayNames([code], { type: 'language' }).of(code) || code; } catch (e) { return code; }
  }
  function switcher() {
    var box = D.createElement('div');
    box.setAttribute('data-lokal-ui', '');
    box.setAttribute('translate', 'no');
    var st = box.style;
    st.position = 'fixed'; st.right = '12px'; st.bottom = '12px'; st.zIndex = '2147483000';
    st.background = '#fff'; st.color = '#111'; st.border = '1px solid #888'; st.borderRadius = '6px';
    st.padding = '4px 6px'; st.font = '14px/1.3 system-ui, sans-serif'; st.boxShadow = '0 1px 4px rgba(0,0,0,.2)';
    var sel = D.createElement('select');
    sel.setAttribute('aria-label', 'Language');
    sel.style.font = 'inherit';
    var langs = info.enabled_languages || [];
    for (var i = 0; i < langs.length; i++) {
      var o = D.createElement('option');
      o.value = langs[i];
      o.textContent = languageName(langs[i]);
      o.setAttribute('lang', langs[i]);
      if (langs[i] === chosen) o.selected = true;
      sel.appendChild(o);
    }
    sel.addEventListener('change', guard(function () {
      var code = sel.value;
      put(local, 'lokal:lang:' + projectId, code);
      load(code)['catch'](function (e) { warn(e.message); sel.value = chosen; });
    }));
    box.appendChild(sel);
    D.body.appendChild(box);
  }

  // --- edit mode (review in context): only this hook is here; the edit code loads from
  // lokal (/embed-edit.js) when a member asks (#lokal-edit, remembered for the tab, or
  // Alt+Shift+L). Off, it adds no request and no node. The edit code gets the hook through
  // its own script element, not a global, and nothing here grants a write.
  var editing = false, edit = null;
  var hook = {
    base: api, ns: ns, mode: 'embed',
    project: function () { return projectId; },
    lang: function () { return chosen; },
    info: function () { return info; },
    orig: function (n) { return textOrig.get(n); },
    lookup: lookup,
    set: function (text, value) {
      var d = {}, k;
      for (k in dict) if (Object.prototype.hasOwnProperty.call(dict, k)) d[k] = dict[k];
      d[text] = String(value);
      apply(d, chosen);
    },
    on: function () { return editing; },
    off: function () { toggle(false); }
  };
  function toggle(on) {
    editing = on;
    if (on) put(session, 'lokal:edit', '1');
    else try { session.removeItem('lokal:edit'); } catch (e) { /* denied */ }
    if (edit) return on ? edit.start() : edit.stop();
    if (!on || !chosen || edit === 0) return;
    edit = 0; // loading
    var s = D.createElement('script');
    s.src = api + '/embed-edit.js';
    s.lokal = function (ctl) { s.lokal = null; edit = ctl; return hook; };
    D.head.appendChild(s);
  }
  W.addEventListener('keydown', guard(function (e) {
    if (e.altKey && e.shiftKey && !e.ctrlKey && !e.metaKey && e.code === 'KeyL') { e.preventDefault(); toggle(!editing); }
  }), true);

  // --- start --------------------------------------------------------------------------------
  function resolve() {
    // location.host: a port tells two local test sites apart (the server drops it on
    // public names).
    var key = 'lokal:project:' + token + ':' + location.host;
    var id = get(session, key);
    if (id) return Promise.resolve(id);
    return request(api + '/api/embed/resolve', {
      token: token, host: location.host, page_lang: pageLang,
      languages: (navigator.languages || [navigator.language]).slice(0, 10)
    }).then(function (r) {
      if (!r || !r.project_id) throw new Error('no project for this host');
      put(session, key, r.project_id);
      return r.project_id;
    });
  }

  function start() {
    resolve().then(function (id) {
      projectId = id;
      return request(api + '/api/' + encodeURIComponent(id) + '/public_info');
    }).then(guard(function (i) {
      info = i || {};
      var pinged = 'lokal:pinged:' + projectId;
      if (!get(session, pinged)) {
        put(session, pinged, '1');
        request(api + '/api/' + encodeURIComponent(projectId) + '/install_ping', null)['catch'](function () {});
      }
      if (!info.capabilities || info.capabilities.mode !== 'swap') return;
      var code = choose();
      return load(code).then(guard(function () {
        if (info.show_switcher && (info.enabled_languages || []).length > 1) switcher();
        if (location.hash === '#lokal-edit' || get(session, 'lokal:edit') === '1' || editing) toggle(true);
      }));
    }))['catch'](function (e) { warn(e && e.message || 'failed'); });
  }

  if (!W.fetch || !W.WeakMap || !D.createTreeWalker) return;
  if (D.body) guard(start)();
  else D.addEventListener('DOMContentLoaded', guard(start));
})();
