// sudojudge pages: copy buttons on the statement's code blocks, the language guessed from a
// chosen file, ticking clocks, and live parts ([data-refresh]: the page, or data-src) fetched again until the server says they are final.
(function () {
  document.querySelectorAll('.statement pre').forEach(function (pre) {
    var b = document.createElement('button'); b.type = 'button'; b.className = 'copy'; b.textContent = 'Copy';
    b.onclick = function () { navigator.clipboard.writeText((pre.querySelector('code') || pre).innerText).then(function () { b.textContent = 'Copied'; }); };
    pre.appendChild(b);
  });
  var file = document.querySelector('input[type=file][name=file]'), lang = document.querySelector('select[name=language]');
  if (file && lang) file.onchange = function () {
    var ext = (file.files[0] ? file.files[0].name.split('.').pop() : '').toLowerCase();
    Array.prototype.forEach.call(lang.options, function (o) { if ((o.dataset.ext || '').split(' ').indexOf(ext) >= 0) lang.value = o.value; });
  };
  function clocks(root) {
    root.querySelectorAll('[data-countdown]').forEach(function (el) {
      var end = Date.now() + 1000 * +el.dataset.countdown;
      (function tick() {
        if (!el.isConnected) return;
        var s = Math.max(0, Math.round((end - Date.now()) / 1000));
        el.textContent = Math.floor(s / 3600) + ':' + ('0' + Math.floor(s / 60) % 60).slice(-2) + ':' + ('0' + s % 60).slice(-2);
        if (s > 0) setTimeout(tick, 1000);
      })();
    });
  }
  clocks(document);
  function poll(live) {
    setTimeout(function () {
      fetch(live.dataset.src || location.href, { credentials: 'same-origin' }).then(function (r) { return r.text(); }).then(function (html) {
        var next = new DOMParser().parseFromString(html, 'text/html').getElementById(live.id);
        if (next) { live.replaceWith(next); clocks(next); live = next; }
      }).finally(function () { if (live.dataset.refresh) poll(live); });
    }, +live.dataset.refresh);
  }
  document.querySelectorAll('[data-refresh]').forEach(poll);
})();
