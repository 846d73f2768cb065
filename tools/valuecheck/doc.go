// Package valuecheck decides whether a translation value would be executed
// by a browser, so that the API can refuse it with invalid_translation.
//
// Values are text and markup (links, <strong>, placeholders such as
// %{name}) that end up inside web pages, sometimes as element content and
// sometimes inside an attribute such as href. A stored value that runs
// script would run for every visitor of every page that shows it, so the
// check errs on the side of refusing: anything a browser could execute is
// refused, and so is markup whose meaning depends on how the page around it
// is parsed.
//
// # Rules
//
// Check refuses a value when:
//
//   - the value itself, after HTML entity decoding and URL normalization
//     (leading spaces and control characters dropped, tab and newline
//     removed anywhere, scheme case folded), starts with a javascript:,
//     vbscript: or livescript: URL, or with a data: URL whose type can
//     run (HTML, SVG or any XML, script, types browsers sniff); images,
//     audio, video, fonts and plain text are inert. Prose that starts with
//     the word is refused too, unless what follows "javascript:" certainly
//     cannot parse as a program, so that a browser runs nothing: it has two
//     plain words side by side on one line ("enable it", "The Good"), which
//     is a syntax error wherever it stands, and no quote, slash, backslash,
//     percent escape, angle bracket, '#', '&' or white space other than the
//     space that could hide the pair in a string, comment or second line;
//     JavaScript's keywords ("typeof x", "new Date", "a in b") are no plain
//     words. "JavaScript: enable it in your browser settings" is text,
//     "javascript: alert(1)" and "javascript:void fetch(x)" are refused.
//     The exemption is for the whole value only, not for a Markdown
//     destination or a URL list, whose end is a guess.
//   - it contains a <script> element, a <base href>, a <link rel=import>, or
//     any srcdoc attribute;
//   - any attribute on any element is named on* (an inline event handler),
//     or an SVG animation targets one (attributeName="on...");
//   - any attribute value starts with such a script URL, or, for attributes
//     that hold lists of URLs (srcset, ping, archive, values, meta content),
//     any entry does;
//   - a style attribute or <style> element uses expression(), -moz-binding,
//     behavior: or a script URL, after CSS escapes and comments are removed;
//   - markup (a "<" followed by a letter, "/", "!" or "?") is hidden inside
//     an attribute value, comment, or raw-text element such as <title> or
//     <style>. Browsers parse such places differently depending on the
//     surrounding context (SVG, MathML, noscript), which is how mutation XSS
//     slips past checks that trust one tokenization;
//   - an unfinished tag at the end would do any of the above once the page
//     closes it with ">", "\">" or "'>";
//   - a Markdown link or image ("[x](url)", "![](url)"), reference definition
//     ("[r]: url") or autolink ("<url>") points at such a script URL. The
//     destination is decoded as Markdown does (backslash escapes, entities, an
//     optional "<...>") and read with the same URL normalization. Every "](",
//     "]:" and "<" counts wherever it stands, even in a code span, because
//     renderers disagree on what is a link.
//
// A value holding a backslash is checked again after JavaScript-style and
// CSS-style unescaping, because a template may put it into a script or
// style context that decodes \x3c or \6a.
//
// Values without any of '<', ':', '&' or '\' are accepted without parsing:
// they can open no tag, name no URL scheme, and encode neither.
//
// Check only looks at the value. It does not make it safe to paste a value
// unescaped into the middle of an attribute or a script; templates still
// have to escape for the context they write into.
package valuecheck
