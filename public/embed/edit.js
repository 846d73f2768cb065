/*! lokal edit mode (review in context): loaded from lokal only when a member asks for it.
 * Outlines the texts lokal knows, opens one in lokal's panel on Alt+click (or the keyboard
 * path), and shows a save in place. It holds no credential: the panel, on lokal's origin,
 * does every write with its own session; messages carry keys and texts only. Plain
 * JavaScript, no build step; it never inserts HTML, never evals, never throws into the page. */
(function () {
  'use strict';
  var W = window, D = document;
  var me = D.currentScript, reg = me && me.lokal;
  if (typeof reg !== 'function') return; // only the hook's own script element hands it over
  var warned = false;
  function warn(msg) {
    if (warned) return;
    warned = true;
    try { console.warn('lokal edit: ' + msg); } catch (e) { /* no console */ }
  }
  function guard(fn) {
    return function () {
      try { return fn.apply(this, arguments); } catch (e) { warn(e && e.message || 'error'); }
    };
  }

  var ctl = { start: guard(start), stop: guard(stop) };
  var hook = reg(ctl);
  if (!hook || typeof hook !== 'object') return;
  var origin;
  try { origin = new URL(hook.base).origin; } catch (e) { return; }
  if (!/^https?:/.test(origin)) return;

  var SKIP = 'script,style,noscript,code,pre,textarea,template,svg,[translate="no"],.notranslate,[data-lokal-ui]';
  var LETTER = /[A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF\u0590-\u06FF\u0900-\u0DFF\u0E00-\u0EFF\u1100-\u11FF\u3040-\u30FF\u3400-\u9FFF\uAC00-\uD7AF]/;
  var OUTLINE = '2px dashed #1a73e8', RING = '3px solid #d93025';
  function norm(s) { return String(s).replace(/\s+/g, ' ').trim(); }
  function low(s) { return String(s || '').toLowerCase(); }
  function sameLang(a, b) { a = low(a); b = low(b); return !!a && (a === b || a.split('-')[0] === b.split('-')[0]); }
  function clip(s, tail) { return s.length <= 120 ? s : tail ? s.slice(s.length - 120) : s.slice(0, 120); }

  var on = false, ui = null, live = null, sheet = null, observer = null;
  var panel = null, ready = false, pending = null, lastOpen = null;
  var items = null, byEl = null, seenSig = '', seenTimer = 0;
  var hovered = null, cursor = -1; // the outlined element; the keyboard path's place

  // --- the marked texts ---------------------------------------------------------------------
  // scan lists, in page order, the text nodes lokal knows: on Embed pages those the Embed
  // swapped or saw (translated, or harvestable text still untranslated); on i18next pages
  // those showing a text a key rendered.
  function scan() {
    var list = [], map = new Map(), all = [];
    var w = D.createTreeWalker(D.body, 4), n, skip = new Map();
    while ((n = w.nextNode())) {
      var p = n.parentElement, v = n.nodeValue;
      if (!p || !v.trim()) continue;
      var sk = skip.get(p);
      if (sk === undefined) skip.set(p, sk = !!p.closest(SKIP) || p.isContentEditable || !p.getClientRects().length);
      if (sk) continue;
      all.push(n);
      var it = null;
      if (hook.mode === 'i18next') {
        var k = hook.keyOf(norm(v), n);
        if (k) it = { key: k.key, ns: k.ns, text: norm(v) };
      } else {
        var o = hook.orig(n);
        if (o !== undefined) {
          var t = norm(o);
          if (hook.lookup(o) !== null || (t.length >= 2 && t.length <= 5000 && LETTER.test(t))) it = { key: null, ns: hook.ns, text: t, raw: o.trim() };
        }
      }
      if (!it) continue;
      it.node = n;
      it.el = p;
      it.at = all.length - 1;
      it.position = list.length + 1;
      list.push(it);
      if (!map.has(p)) map.set(p, []);
      map.get(p).push(it);
    }
    items = list;
    byEl = map;
    items.all = all;
    return list;
  }
  function marks() { return items || scan(); }

  // itemFor finds the marked text under an element (or its nearest marked ancestor).
  function itemFor(el, x, y) {
    marks();
    for (var i = 0; el && el !== D.body && i < 4; el = el.parentElement, i++) {
      var its = byEl.get(el);
      if (!its) continue;
      if (its.length > 1 && x !== undefined && D.caretRangeFromPoint) {
        var r = D.caretRangeFromPoint(x, y);
        for (var j = 0; r && j < its.length; j++) if (its[j].node === r.startContainer) return its[j];
      }
      return its[0];
    }
    return null;
  }

  // --- what the page tells the panel about a text ------------------------------------------
  function role(el) {
    if (el.closest('button,[role=button],input[type=submit],input[type=button],summary')) return 'button';
    if (el.closest('h1,h2,h3,h4,h5,h6,[role=heading]')) return 'heading';
    if (el.closest('a[href],[role=link]')) return 'link';
    if (el.closest('option,[role=option],[role=menuitem],[role=tab]')) return 'option';
    if (el.closest('label,legend,th,dt,[role=columnheader]')) return 'label';
    return 'text';
  }
  function px(v) { return parseFloat(v) || 0; }
  // box is the content-box width of the block that holds el (an inline element's width is
  // its text's, so its nearest non-inline ancestor decides where the text wraps).
  function box(el) {
    for (var e = el; e && e !== D.documentElement; e = e.parentElement) {
      var cs = W.getComputedStyle(e);
      if (cs.display === 'inline' || cs.display === 'contents') continue;
      return round(e.clientWidth - px(cs.paddingLeft) - px(cs.paddingRight));
    }
    return 0;
  }
  function round(v) { return Math.round(v * 10) / 10; }
  function textWidth(node) {
    var r = D.createRange();
    r.selectNodeContents(node);
    return round(r.getBoundingClientRect().width);
  }
  function neighbours(it, dir) {
    var all = marks().all, s = '';
    for (var i = it.at + dir; i >= 0 && i < all.length && s.length < 120; i += dir) {
      var t = norm(all[i].nodeValue);
      if (t) s = dir < 0 ? (t + ' ' + s).trim() : (s + ' ' + t).trim();
    }
    return clip(s, dir < 0);
  }
  function context(it) {
    return {
      url: location.origin + location.pathname, title: D.title || '', role: role(it.el),
      before: neighbours(it, -1), after: neighbours(it, 1),
      width: textWidth(it.node), box: box(it.el), position: it.position
    };
  }

  // --- the panel ----------------------------------------------------------------------------
  // lang is the page's shown language; on a page shown in the source language the panel
  // opens for the first other enabled language (the person can switch there).
  function lang() {
    var l = hook.lang() || '', info = hook.info && hook.info();
    if (info && info.source_language && low(l).split('-')[0] === low(info.source_language).split('-')[0]) {
      var ls = info.enabled_languages || [];
      for (var i = 0; i < ls.length; i++) if (low(ls[i]) !== low(info.source_language)) return ls[i];
    }
    return l;
  }
  function send(msg) {
    if (!panel || panel.closed) return;
    msg.lokal = 1;
    panel.postMessage(msg, origin);
  }
  function open(it) {
    var l = lang();
    var msg = { type: 'open', ns: it.ns, key: it.key, text: it.text, lang: l, context: context(it) };
    lastOpen = msg;
    if (!panel || panel.closed) {
      ready = false;
      panel = W.open(hook.base + '/app/p/' + encodeURIComponent(hook.project()) + '/incontext/' + encodeURIComponent(l) +
        '?ns=' + encodeURIComponent(it.ns) + '&origin=' + encodeURIComponent(location.origin), 'lokal-incontext', 'popup,width=520,height=800');
      if (!panel) { warn('the panel window was blocked'); return; }
    }
    if (ready) send(msg); else pending = msg;
    try { panel.focus(); } catch (e) { /* another origin may refuse */ }
  }
  function seen(force) {
    if (!ready) return;
    var list = scan(), out = [], sig = '';
    for (var i = 0; i < list.length; i++) {
      out.push({ key: list[i].key, text: list[i].text, context: context(list[i]) });
      sig += list[i].text + '\n';
    }
    if (!force && sig === seenSig) return;
    seenSig = sig;
    send({ type: 'seen', ns: hook.ns, items: out });
  }

  // onMessage takes only lokal's origin and only the panel window this page opened.
  function onMessage(e) {
    if (!panel || e.source !== panel || e.origin !== origin) return;
    var m = e.data;
    if (!m || typeof m !== 'object' || m.lokal !== 1 || typeof m.type !== 'string') return;
    if (m.type === 'ready') {
      ready = true;
      var p = pending || lastOpen;
      pending = null;
      if (p) send(p);
      seen(true);
    } else if (m.type === 'saved') {
      saved(m);
    } else if (m.type === 'measure') {
      measure(m);
    }
  }

  // saved shows a saved value in place when it is for the language the page shows.
  function saved(m) {
    if (typeof m.value !== 'string' || !sameLang(m.lang, hook.lang())) return;
    if (hook.mode === 'i18next') {
      if (typeof m.key === 'string' && m.key) hook.set(typeof m.ns === 'string' ? m.ns : hook.ns, m.key, m.value);
    } else {
      if (typeof m.text !== 'string' || (m.ns !== undefined && m.ns !== hook.ns)) return;
      var t = norm(m.text), done = {}, list = marks();
      hook.set(t, m.value);
      done[t] = 1;
      // The dictionary may hold the text as authored (line breaks and all): set that too.
      for (var i = 0; i < list.length; i++) {
        var r = list[i].raw;
        if (list[i].text === t && !done[r]) { done[r] = 1; hook.set(r, m.value); }
      }
    }
    items = null;
  }

  // measure renders value with the font of an element showing text, hidden, and answers
  // whether it fits that element's box.
  function measure(m) {
    if (typeof m.value !== 'string' || typeof m.text !== 'string') return;
    var list = marks(), it = null, t = norm(m.text);
    if (lastOpen && lastOpen.text === t) for (var i = 0; i < list.length && !it; i++) if (list[i].text === t) it = list[i];
    for (i = 0; i < list.length && !it; i++) if (list[i].text === t) it = list[i];
    var res = { type: 'measured', id: m.id, width: 0, box: 0, fits: true };
    if (it) {
      var cs = W.getComputedStyle(it.el), s = D.createElement('span'), st = s.style;
      s.setAttribute('data-lokal-ui', '');
      s.setAttribute('aria-hidden', 'true');
      st.position = 'absolute'; st.visibility = 'hidden'; st.whiteSpace = 'nowrap'; st.left = '-10000px'; st.top = '0';
      st.font = cs.font; st.letterSpacing = cs.letterSpacing; st.wordSpacing = cs.wordSpacing; st.textTransform = cs.textTransform;
      s.textContent = m.value;
      D.body.appendChild(s);
      res.width = round(s.getBoundingClientRect().width);
      D.body.removeChild(s);
      res.box = box(it.el);
      res.fits = res.width <= res.box + 0.5;
    }
    send(res);
  }

  // --- outlines -----------------------------------------------------------------------------
  // A constructed stylesheet (no element, and not an inline style a strict CSP blocks);
  // without one, the element's own style is set and put back.
  function styles() {
    try {
      sheet = new CSSStyleSheet();
      sheet.replaceSync('[data-lokal-mark]{outline:' + OUTLINE + ' !important;outline-offset:2px !important}' +
        '[data-lokal-mark=focus]{outline:' + RING + ' !important}');
      D.adoptedStyleSheets = D.adoptedStyleSheets.concat([sheet]);
    } catch (e) { sheet = null; }
  }
  function outline(el, kind) {
    if (!el) return;
    if (!kind) {
      el.removeAttribute('data-lokal-mark');
      if (!sheet && el.lokalOutline !== undefined) { el.style.outline = el.lokalOutline; el.lokalOutline = undefined; }
      return;
    }
    el.setAttribute('data-lokal-mark', kind);
    if (!sheet) {
      if (el.lokalOutline === undefined) el.lokalOutline = el.style.outline;
      el.style.outline = kind === 'focus' ? RING : OUTLINE;
    }
  }
  function hover(el) {
    if (el === hovered) return;
    if (hovered && !(cursor >= 0 && items && items[cursor] && items[cursor].el === hovered)) outline(hovered, null);
    hovered = el;
    if (el && el.getAttribute('data-lokal-mark') !== 'focus') outline(el, 'hover');
  }

  function onOver(e) {
    var it = itemFor(e.target);
    hover(it ? it.el : null);
  }
  function onClick(e) {
    if (!e.altKey || e.shiftKey || e.ctrlKey || e.metaKey) return;
    var it = itemFor(e.target, e.clientX, e.clientY);
    if (!it) return;
    // Alt+click is lokal's: links are not followed, the page's handlers not run.
    e.preventDefault();
    e.stopImmediatePropagation();
    open(it);
  }
  function swallow(e) {
    if (e.altKey && !e.shiftKey && !e.ctrlKey && !e.metaKey && itemFor(e.target)) { e.preventDefault(); e.stopImmediatePropagation(); }
  }

  // --- the keyboard path: Alt+Shift+K, then Tab / Shift+Tab, Enter opens, Escape leaves ----
  function moveTo(i) {
    var list = marks();
    if (!list.length) { say('No texts to review on this page'); return; }
    if (cursor >= 0 && list[cursor]) outline(list[cursor].el, null);
    cursor = (i + list.length) % list.length;
    var it = list[cursor];
    outline(it.el, 'focus');
    try { it.el.scrollIntoView({ block: 'nearest', inline: 'nearest' }); } catch (e) { /* old browser */ }
    say('Text ' + (cursor + 1) + ' of ' + list.length + ': ' + clip(it.text) + '. Enter opens it, Escape leaves.');
  }
  function leave() {
    if (cursor >= 0 && items && items[cursor]) outline(items[cursor].el, null);
    cursor = -1;
    say('');
  }
  function onKey(e) {
    if (e.altKey && e.shiftKey && !e.ctrlKey && !e.metaKey && e.code === 'KeyK') {
      e.preventDefault();
      e.stopImmediatePropagation();
      items = null;
      moveTo(0);
      return;
    }
    if (cursor < 0 || e.altKey || e.ctrlKey || e.metaKey) return;
    var list = marks();
    if (e.key === 'Tab') moveTo(cursor + (e.shiftKey ? -1 : 1));
    else if (e.key === 'Enter' && list[cursor]) open(list[cursor]);
    else if (e.key === 'Escape') leave();
    else return;
    e.preventDefault();
    e.stopImmediatePropagation();
  }

  // --- the exit button and the spoken line --------------------------------------------------
  function say(text) { if (live) live.textContent = text; }
  function bar() {
    var box = D.createElement('div'), st = box.style;
    box.setAttribute('data-lokal-ui', '');
    box.setAttribute('translate', 'no');
    box.setAttribute('role', 'region');
    box.setAttribute('aria-label', 'lokal edit mode');
    st.position = 'fixed'; st.left = '12px'; st.bottom = '12px'; st.zIndex = '2147483001';
    st.background = '#fff'; st.color = '#111'; st.border = '1px solid #1a73e8'; st.borderRadius = '6px';
    st.padding = '4px 8px'; st.font = '13px/1.4 system-ui, sans-serif'; st.boxShadow = '0 1px 4px rgba(0,0,0,.2)'; st.maxWidth = '360px';
    var hint = D.createElement('span');
    hint.textContent = 'lokal: Alt+click a text to edit it (Alt+Shift+K: by keyboard) ';
    var b = D.createElement('button');
    b.type = 'button';
    b.textContent = 'Exit edit mode';
    b.style.font = 'inherit';
    b.addEventListener('click', guard(function (e) { e.preventDefault(); hook.off(); }));
    live = D.createElement('span');
    live.setAttribute('aria-live', 'polite');
    live.style.display = 'block';
    box.appendChild(hint);
    box.appendChild(b);
    box.appendChild(live);
    D.body.appendChild(box);
    return box;
  }

  // --- on and off ---------------------------------------------------------------------------
  var gOver = guard(onOver), gClick = guard(onClick), gSwallow = guard(swallow), gKey = guard(onKey), gMsg = guard(onMessage);
  var gFocus = guard(function (e) { onOver(e); });
  function changed() {
    items = null;
    if (seenTimer) return;
    seenTimer = setTimeout(guard(function () { seenTimer = 0; seen(false); }), 1000);
  }
  function start() {
    if (on) return;
    on = true;
    styles();
    ui = bar();
    D.addEventListener('mouseover', gOver, true);
    D.addEventListener('focusin', gFocus, true);
    W.addEventListener('click', gClick, true);
    W.addEventListener('mousedown', gSwallow, true);
    W.addEventListener('auxclick', gSwallow, true);
    W.addEventListener('keydown', gKey, true);
    W.addEventListener('message', gMsg);
    if (W.MutationObserver) {
      observer = new MutationObserver(guard(changed));
      observer.observe(D.body, { childList: true, subtree: true, characterData: true });
    }
    items = null;
  }
  function stop() {
    if (!on) return;
    on = false;
    leave();
    hover(null);
    if (observer) observer.disconnect();
    observer = null;
    D.removeEventListener('mouseover', gOver, true);
    D.removeEventListener('focusin', gFocus, true);
    W.removeEventListener('click', gClick, true);
    W.removeEventListener('mousedown', gSwallow, true);
    W.removeEventListener('auxclick', gSwallow, true);
    W.removeEventListener('keydown', gKey, true);
    W.removeEventListener('message', gMsg);
    if (ui && ui.parentNode) ui.parentNode.removeChild(ui);
    ui = live = null;
    if (sheet) {
      var s = sheet;
      D.adoptedStyleSheets = D.adoptedStyleSheets.filter(function (x) { return x !== s; });
      sheet = null;
    }
    clearTimeout(seenTimer);
    seenTimer = 0;
    items = null;
    var left = D.querySelectorAll('[data-lokal-mark]');
    for (var i = 0; i < left.length; i++) left[i].removeAttribute('data-lokal-mark');
  }

  if (hook.on()) ctl.start();
})();
