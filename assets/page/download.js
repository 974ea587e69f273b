/*
 * download.js: the download button. The embedded session, unpacked
 * (DecompressionStream), with its pictures put back from the page's own
 * <img> data (withImages, imageHash: render.dedupImages and
 * render.imageHash are the Go side).
 *
 * Relies on: prologue.js (doc); store.js (pathChunks, afterStore, inflate64);
 * navigation.js (notice); toolbar.js (on).
 */
  on("download-source", function () {
    var el = doc.getElementById("source-data");
    if (!el) { notice("The page is still loading: try again in a moment."); return; }
    if (typeof DecompressionStream === "undefined") { notice("This browser cannot unpack the embedded session."); return; }
    var file = inflate64(JSON.parse(el.textContent)).blob();
    if (el.hasAttribute("data-images")) {
      // The pictures are read from every chunk's HTML: the store's once
      // it is unpacked (afterStore).
      file = file.then(function (b) { return b.arrayBuffer(); }).then(function (buf) {
        return new Promise(function (done) { afterStore(done); }).then(function () { return withImages(new Uint8Array(buf)); });
      });
    }
    file.then(function (blob) {
      var a = doc.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = doc.getElementById("download-source").getAttribute("data-name") || "session.jsonl";
      doc.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(function () { URL.revokeObjectURL(a.href); }, 10000);
    }).catch(function (e) { notice("The session could not be unpacked: " + e.message); });
  });

  // The embedded session holds each picture the page shows as a marker,
  // NUL length ":" hash NUL (render.dedupImages): withImages puts the
  // pictures back, from the page's own <img> data.
  function withImages(u) {
    var found = new Map(), re = /<img class="image" src="data:image\/[a-z]+;base64,([^"]*)"/g;
    var chunks = Array.prototype.slice.call(doc.querySelectorAll("#store > script[data-i]")).concat(pathChunks);
    chunks.forEach(function (c) {
      var t = c.textContent, m;
      re.lastIndex = 0;
      while ((m = re.exec(t))) found.set(m[1].length + ":" + imageHash(m[1]), m[1]);
    });
    var parts = [], at = 0;
    for (;;) {
      var s = u.indexOf(0, at);
      if (s < 0) break;
      var e = u.indexOf(0, s + 1);
      if (e < 0) throw new Error("a broken picture marker");
      var key = String.fromCharCode.apply(null, u.subarray(s + 1, e));
      var data = found.get(key);
      if (data === undefined) throw new Error("a picture is missing from the page");
      parts.push(u.subarray(at, s), data);
      at = e + 1;
    }
    parts.push(u.subarray(at));
    return new Blob(parts);
  }
  // imageHash: cyrb53's two 32-bit halves, in hex (render.imageHash).
  function imageHash(str) {
    var h1 = 0xdeadbeef, h2 = 0x41c6ce57;
    for (var i = 0; i < str.length; i++) {
      var ch = str.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
    h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
    h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return hex8(h1) + hex8(h2);
  }
  function hex8(x) { return ("0000000" + (x >>> 0).toString(16)).slice(-8); }

