// Progressive enhancement only: every page works without it. Loaded as a file (the CSP allows no inline script).
(function () {
  'use strict';
  document.addEventListener('DOMContentLoaded', function () {
    // Copy buttons are hidden until this script can make them work.
    document.querySelectorAll('[data-copy]').forEach(function (button) {
      button.hidden = false;
      button.addEventListener('click', function () {
        var source = document.getElementById(button.getAttribute('data-copy'));
        if (!source || !navigator.clipboard) return;
        navigator.clipboard.writeText(source.textContent.trim()).then(function () {
          var label = button.textContent;
          button.textContent = 'Copied';
          setTimeout(function () {
            button.textContent = label;
          }, 2000);
        });
      });
    });
  });
})();
