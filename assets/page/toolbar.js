/*
 * toolbar.js: the conversation's copy-link buttons (onConvClick,
 * copyText) and the toolbar: thinking, tool outputs (openOutputs,
 * toggleOutputs), silent turns, the drawer (toggleDrawer: closed by its
 * Close button, Escape or a tap outside, focus given back) and the theme;
 * on(id, f) binds a toolbar button.
 *
 * Relies on: prologue.js (doc, root, sidebar, treeEl, searchEl, posOfElement);
 * store.js (elements); conversation.js (state, expandOutputs);
 * navigation.js (linkTo, updateURL, markTarget); filter.js
 * (filterFlags); tree.js (renderTree).
 */
  // ---- The conversation's buttons and the toolbar ---------------------

  function onConvClick(ev) {
    var b = ev.target.closest(".copy-link");
    if (!b) return;
    var holder = b.closest("[id^='entry-']");
    var pos = holder ? posOfElement(holder) : undefined;
    if (pos === undefined) return;
    state.target = pos;
    state.selected = pos;
    var url = linkTo(pos);
    updateURL();
    renderTree();
    markTarget(pos, false);
    copyText(url).then(function () {
      b.textContent = "copied";
      setTimeout(function () { b.textContent = "link"; }, 1500);
    });
  }

  function copyText(text) {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      return navigator.clipboard.writeText(text).catch(function () { return fallbackCopy(text); });
    }
    return Promise.resolve(fallbackCopy(text));
  }
  function fallbackCopy(text) {
    var ta = doc.createElement("textarea");
    ta.value = text;
    doc.body.appendChild(ta);
    ta.select();
    try { doc.execCommand("copy"); } catch (e) { /* nothing more to try */ }
    ta.remove();
  }

  function pressed(id, on) {
    var b = doc.getElementById(id);
    if (b) b.setAttribute("aria-pressed", on ? "true" : "false");
  }
  function toggleThinking() {
    var on = doc.body.classList.toggle("hide-thinking");
    pressed("toggle-thinking", on);
  }
  // Silent turns (NO_REPLY: never delivered to the user) leave the
  // conversation and the tree together.
  function toggleSilent() {
    state.hideSilent = doc.body.classList.toggle("hide-silent");
    filterFlags();
    pressed("toggle-silent", state.hideSilent);
    renderTree();
  }
  function openOutputs(el) {
    el.querySelectorAll("details.more, details.json").forEach(function (d) { d.open = expandOutputs; });
  }
  function toggleOutputs() {
    expandOutputs = !expandOutputs;
    elements.forEach(openOutputs);
    pressed("toggle-tools", expandOutputs);
  }
  // The drawer (the tree on a narrow screen) opens from the Tree button and
  // closes from its Close button, Escape, or a tap outside it; focus goes
  // to the tree, and back to the Tree button (or to back, when given: the
  // entry a row chose).
  // While it is open, the page behind it (the content and the skip link)
  // is inert: Tab and a screen reader's cursor stay in the drawer; a tap
  // there goes through to the page, which closes the drawer.
  var menuButton = doc.getElementById("menu-button");
  var behind = [doc.getElementById("content"), doc.querySelector(".skip-link")].filter(Boolean);
  function toggleDrawer(open, back) {
    var was = sidebar.classList.contains("open");
    sidebar.classList.toggle("open", open);
    doc.body.classList.toggle("drawer-open", open);
    behind.forEach(function (el) { el.inert = !!open; });
    if (menuButton) menuButton.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) treeEl.focus();
    else if (was && (back || menuButton)) (back || menuButton).focus();
  }
  // A screen grown wide enough shows the sidebar beside the page: a drawer
  // left open closes, so that the page is not left inert.
  var wideScreen = matchMedia("(min-width: 901px)");
  function onWide() { if (wideScreen.matches && sidebar.classList.contains("open")) toggleDrawer(false); }
  if (wideScreen.addEventListener) wideScreen.addEventListener("change", onWide); else if (wideScreen.addListener) wideScreen.addListener(onWide);
  // Escape in the drawer closes it (in the search box, once it is empty).
  sidebar.addEventListener("keydown", function (ev) {
    if (ev.key !== "Escape" || !sidebar.classList.contains("open") || (ev.target === searchEl && searchEl.value)) return;
    ev.preventDefault();
    toggleDrawer(false);
  }, true);
  doc.addEventListener("click", function (ev) {
    if (!sidebar.classList.contains("open") || sidebar.contains(ev.target) || (menuButton && menuButton.contains(ev.target))) return;
    ev.preventDefault();
    ev.stopPropagation();
    toggleDrawer(false);
  }, true);
  function on(id, f) { var b = doc.getElementById(id); if (b) b.addEventListener("click", f); }
  on("toggle-thinking", toggleThinking);
  on("toggle-tools", toggleOutputs);
  on("toggle-silent", toggleSilent);
  on("menu-button", function () { toggleDrawer(!sidebar.classList.contains("open")); });
  on("drawer-close", function () { toggleDrawer(false); });

  // Theme: the system's, unless the reader chose; the choice is kept.
  function storedTheme() { try { return localStorage.getItem("canopy-theme"); } catch (e) { return null; } }
  var chosen = storedTheme();
  if (chosen === "light" || chosen === "dark") root.setAttribute("data-theme", chosen);
  on("toggle-theme", function () {
    var cur = root.getAttribute("data-theme");
    if (cur === "auto") cur = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
    var next = cur === "dark" ? "light" : "dark";
    root.setAttribute("data-theme", next);
    try { localStorage.setItem("canopy-theme", next); } catch (e) { /* not kept: fine */ }
  });

