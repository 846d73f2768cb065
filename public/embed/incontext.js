/*! lokal in-context review for i18next apps: a post-processor that, only in edit mode,
 * notes which key rendered which text and loads lokal's edit code (/embed-edit.js). Two keys
 * may render the same text, so in edit mode each value leaves the post-processor with an
 * invisible mark naming its key, which an observer takes off the page's text nodes (and
 * attributes) as soon as they are written, before any paint: the text shown and copied is
 * the app's own, and each node remembers its key.
 * Outside edit mode it returns every value untouched and does nothing else.
 *   i18next.use(lokalInContext({ base: 'https://lokal.example.com', projectId: 'P', namespaceDefault: 'common' }))
 *     .init({ postProcess: ['lokalInContext'], ... })
 * Plain JavaScript, no build step; it never inserts HTML, never evals, never throws into the page. */
(function () {
  'use strict';
  var W = window, D = document;
  var me = D.currentScript, here = (me && me.src || '').replace(/\/incontext\.js(\?.*)?(#.*)?$/, '');
  function warn(msg) { try { console.warn('lokal in context: ' + msg); } catch (e) { /* no console */ } }
  function guard(fn) {
    return function () {
      try { return fn.apply(this, arguments); } catch (e) { warn(e && e.message || 'error'); }
    };
  }
  function session() { try { return W.sessionStorage; } catch (e) { return null; } }
  function norm(s) { return String(s).replace(/\s+/g, ' ').trim(); }
  function first(v) { return Array.isArray(v) ? v[0] : v; }

  W.lokalInContext = function (opts) {
    opts = opts || {};
    var base = String(opts.base || here).replace(/\/+$/, '');
    var nsDefault = String(opts.namespaceDefault || 'translation');
    var projectId = String(opts.projectId || '');
    var editing = false, edit = null, tr = null;
    var byText = new Map(), byKey = new Map(); // shown text -> [{ns, key}]; ns\0key -> shown text
    // Marks: U+2063, the key's index in ids in U+200B (0) and U+200C (1), U+2063.
    var ids = [], idIndex = new Map(), nodeKey = new WeakMap(), marks = null;
    var MARK = /\u2063([\u200b\u200c]{1,24})\u2063/g;
    var ATTRS = ['title', 'placeholder', 'alt', 'aria-label', 'value'];

    function markOf(ns, key) {
      var id = ns + '\u0000' + key, i = idIndex.get(id);
      if (i === undefined) { i = ids.length; ids.push({ ns: ns, key: key }); idIndex.set(id, i); }
      return '\u2063' + i.toString(2).replace(/0/g, '\u200b').replace(/1/g, '\u200c') + '\u2063';
    }
    // unmark takes the marks off a text node, or an element's attributes, noting the key of
    // the node's first mark.
    function unmark(n) {
      if (n.nodeType === 3) {
        var v = n.nodeValue;
        if (v.indexOf('\u2063') < 0) return;
        var found = null;
        var clean = v.replace(MARK, function (_, bits) {
          if (!found) found = ids[parseInt(bits.replace(/\u200b/g, '0').replace(/\u200c/g, '1'), 2)] || null;
          return '';
        });
        if (found) nodeKey.set(n, found);
        n.nodeValue = clean;
        return;
      }
      if (n.nodeType !== 1) return;
      for (var i = 0; i < ATTRS.length; i++) {
        var a = n.getAttribute(ATTRS[i]);
        if (a && a.indexOf('\u2063') >= 0) n.setAttribute(ATTRS[i], a.replace(MARK, ''));
      }
      var w = D.createTreeWalker(n, 5), c;
      while ((c = w.nextNode())) unmark(c);
    }
    function watchMarks() {
      if (marks || !W.MutationObserver) return;
      marks = new MutationObserver(guard(function (rs) {
        for (var i = 0; i < rs.length; i++) {
          var r = rs[i];
          if (r.type === 'childList') for (var j = 0; j < r.addedNodes.length; j++) unmark(r.addedNodes[j]);
          else unmark(r.target);
        }
      }));
      marks.observe(D.documentElement, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ATTRS });
      unmark(D.documentElement);
      if (D.title.indexOf('\u2063') >= 0) D.title = D.title.replace(MARK, '');
    }

    function record(value, key, o, translator) {
      tr = translator || tr;
      if (typeof value !== 'string' || typeof key !== 'string' || !key) return '';
      var ns = (o && o.i18nResolved && o.i18nResolved.usedNS) || first(o && o.ns) || nsDefault;
      // "ns:key" names its namespace, as i18next reads it (a known namespace before the
      // separator).
      var to = (tr && tr.options) || {}, sep = o && o.nsSeparator !== undefined ? o.nsSeparator : to.nsSeparator;
      if (sep === undefined) sep = ':';
      var at = sep ? key.indexOf(sep) : -1, known = [].concat(to.ns || []);
      if (at > 0 && known.indexOf(key.slice(0, at)) >= 0) { ns = key.slice(0, at); key = key.slice(at + sep.length); }
      var t = norm(value), id = ns + '\u0000' + key;
      if (!t) return '';
      byKey.set(id, t);
      var list = byText.get(t) || [];
      for (var i = 0; i < list.length; i++) if (list[i].ns === ns && list[i].key === key) list.splice(i--, 1);
      list.push({ ns: ns, key: key });
      byText.set(t, list);
      return markOf(ns, key);
    }

    // rerender asks the app to render again (react-i18next and most bindings listen to
    // languageChanged), so that texts shown before edit mode came on are noted too.
    function rerender() {
      if (tr && typeof tr.emit === 'function') tr.emit('languageChanged', tr.language);
    }

    var hook = {
      base: base, ns: nsDefault, mode: 'i18next',
      project: function () { return projectId; },
      lang: function () { return tr ? tr.language : D.documentElement.getAttribute('lang') || ''; },
      info: function () { return null; },
      // keyOf is the key a text node was rendered from (its mark), else the key that last
      // rendered its text.
      keyOf: function (text, node) {
        var k = node && nodeKey.get(node);
        if (k) return k;
        var l = byText.get(text);
        return l ? l[l.length - 1] : null;
      },
      // set stores a saved value in i18next's resources and shows it in place: the nodes
      // showing the key's text change at once (a value with interpolation waits for the
      // app's render, asked for here).
      set: function (ns, key, value) {
        var id = ns + '\u0000' + key, old = byKey.get(id);
        if (tr && tr.resourceStore) tr.resourceStore.addResource(tr.language, ns, key, value);
        if (old && !/\{\{|\$t\(/.test(value)) {
          var w = D.createTreeWalker(D.body, 4), n, v = norm(value);
          while ((n = w.nextNode())) {
            var c = n.nodeValue, t = c.trim();
            if (!t || norm(t) !== old || (n.parentElement && n.parentElement.closest('[data-lokal-ui]'))) continue;
            var nk = nodeKey.get(n);
            if (nk && (nk.ns !== ns || nk.key !== key)) continue; // another key showing the same text
            var at = c.indexOf(t);
            n.nodeValue = c.slice(0, at) + value + c.slice(at + t.length);
          }
          record(value, key, { i18nResolved: { usedNS: ns } });
          if (v !== old) {
            var l = byText.get(old) || [];
            for (var i = 0; i < l.length; i++) if (l[i].ns === ns && l[i].key === key) l.splice(i--, 1);
            if (!l.length) byText.delete(old);
          }
        }
        rerender();
      },
      on: function () { return editing; },
      off: function () { toggle(false); }
    };

    function toggle(on) {
      editing = on;
      var s = session();
      try { if (on) s.setItem('lokal:edit', '1'); else s.removeItem('lokal:edit'); } catch (e) { /* denied */ }
      if (edit) return on ? edit.start() : edit.stop();
      if (!on || edit === 0) return;
      edit = 0; // loading
      watchMarks();
      if (!byText.size) rerender();
      var el = D.createElement('script');
      el.src = base + '/embed-edit.js';
      el.lokal = function (ctl) { el.lokal = null; edit = ctl; return hook; };
      (D.head || D.documentElement).appendChild(el);
    }

    W.addEventListener('keydown', guard(function (e) {
      if (e.altKey && e.shiftKey && !e.ctrlKey && !e.metaKey && e.code === 'KeyL') { e.preventDefault(); toggle(!editing); }
    }), true);
    var s = session(), want = false;
    try { want = location.hash === '#lokal-edit' || (s && s.getItem('lokal:edit') === '1'); } catch (e) { /* denied */ }
    if (want) {
      editing = true;
      var go = guard(function () { toggle(true); });
      if (D.readyState === 'loading') D.addEventListener('DOMContentLoaded', go); else go();
    }

    return {
      type: 'postProcessor', name: 'lokalInContext',
      process: function (value, key, o, translator) {
        if (editing) {
          try {
            watchMarks();
            return value + record(value, Array.isArray(key) ? key[key.length - 1] : key, o, translator);
          } catch (e) { warn(e && e.message || 'error'); }
        }
        return value;
      }
    };
  };
})();
