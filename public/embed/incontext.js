/*! lokal in-context review for i18next apps: a post-processor that, only in edit mode,
 * notes which key rendered which text (a registry in this closure: no mark in the text, so
 * what is shown and copied stays the same) and loads lokal's edit code (/embed-edit.js).
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

    function record(value, key, o, translator) {
      tr = translator || tr;
      if (typeof value !== 'string' || typeof key !== 'string' || !key) return;
      var ns = (o && o.i18nResolved && o.i18nResolved.usedNS) || first(o && o.ns) || nsDefault;
      // "ns:key" names its namespace, as i18next reads it (a known namespace before the
      // separator).
      var to = (tr && tr.options) || {}, sep = o && o.nsSeparator !== undefined ? o.nsSeparator : to.nsSeparator;
      if (sep === undefined) sep = ':';
      var at = sep ? key.indexOf(sep) : -1, known = [].concat(to.ns || []);
      if (at > 0 && known.indexOf(key.slice(0, at)) >= 0) { ns = key.slice(0, at); key = key.slice(at + sep.length); }
      var t = norm(value), id = ns + '\u0000' + key;
      if (!t) return;
      byKey.set(id, t);
      var list = byText.get(t) || [];
      for (var i = 0; i < list.length; i++) if (list[i].ns === ns && list[i].key === key) list.splice(i--, 1);
      list.push({ ns: ns, key: key });
      byText.set(t, list);
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
      keyOf: function (text) { var l = byText.get(text); return l ? l[l.length - 1] : null; },
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
          try { record(value, Array.isArray(key) ? key[key.length - 1] : key, o, translator); } catch (e) { warn(e && e.message || 'error'); }
        }
        return value;
      }
    };
  };
})();
