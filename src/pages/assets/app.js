// Progressive enhancement only: every page works without it. Loaded as a file (the CSP allows no inline script).
(function () {
  'use strict';
  document.addEventListener('DOMContentLoaded', function () {
    // A running import's progress: the page fetches itself every second and swaps in the new status,
    // until the import is complete or failed (without JavaScript, a reload shows the same).
    var importStatus = document.getElementById('import-status');
    if (importStatus && importStatus.hasAttribute('data-live-region') && window.fetch && window.DOMParser) {
      var refreshImport = function () {
        fetch(window.location.pathname, { headers: { accept: 'text/html' }, credentials: 'same-origin' })
          .then(function (response) {
            return response.ok ? response.text() : Promise.reject(new Error(String(response.status)));
          })
          .then(function (html) {
            var next = new DOMParser().parseFromString(html, 'text/html').getElementById('import-status');
            if (!next) return;
            importStatus.replaceWith(next);
            importStatus = next;
            if (next.hasAttribute('data-live-region')) setTimeout(refreshImport, 1000);
          })
          .catch(function () {
            setTimeout(refreshImport, 5000);
          });
      };
      setTimeout(refreshImport, 1000);
    }
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

// The compose page: a live preview from the server as the form changes (the same JSON the Preview button renders), placeholder chips.
(function () {
  'use strict';
  var PREVIEW_DELAY_MS = 400;

  function element(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function facts(pairs) {
    var list = element('dl', undefined, 'facts');
    pairs.forEach(function (pair) {
      list.appendChild(element('dt', pair[0]));
      var value = element('dd', pair[1]);
      if (pair[2]) value.setAttribute('data-field', pair[2]);
      list.appendChild(value);
    });
    return list;
  }

  function showPreview(section, answer) {
    var heading = section.querySelector('h2');
    while (section.lastChild && section.lastChild !== heading) section.removeChild(section.lastChild);
    if (answer.error) {
      var error = element('p', answer.error, 'notice notice-error');
      error.setAttribute('data-field', 'error');
      section.appendChild(error);
      return;
    }
    if (answer.sample) {
      section.appendChild(element('p', 'To ' + answer.sample.to + ':', 'muted'));
      var text = element('p', answer.sample.text, 'sms');
      text.setAttribute('data-field', 'text');
      section.appendChild(text);
      section.appendChild(
        facts([
          ['Encoding', answer.sample.encoding, 'encoding'],
          ['Length', answer.sample.characters + ' characters, ' + answer.sample.parts + (answer.sample.parts === 1 ? ' part' : ' parts') + ' a message', 'length'],
        ]),
      );
    }
    var totals = [['Recipients', String(answer.recipients), 'recipients']];
    if (answer.blocked) totals.push(['Left out: unsubscribed', String(answer.blocked)]);
    if (answer.skipped) totals.push(['Left out: too long', String(answer.skipped)]);
    totals.push(['Parts in all', String(answer.totalParts), 'total-parts']);
    totals.push(['Cost', answer.cost + ' credits', 'cost']);
    section.appendChild(facts(totals));
    if (answer.heldUntil) {
      var held = element('p', 'Held by quiet hours until ' + answer.heldUntil + ': messages outside the allowed hours wait until sending is next allowed.', 'notice notice-warn');
      held.setAttribute('data-field', 'held');
      section.appendChild(held);
    }
    if (answer.errorCount) {
      section.appendChild(element('p', answer.errorCount + (answer.errorCount === 1 ? ' recipient cannot' : ' recipients cannot') + ' be sent this message:'));
      var list = element('ul', undefined, 'errors');
      answer.errors.forEach(function (e) {
        list.appendChild(element('li', e.to + ': ' + e.error));
      });
      section.appendChild(list);
    }
  }

  document.addEventListener('DOMContentLoaded', function () {
    var form = document.getElementById('compose');
    if (!form) return;
    var section = document.getElementById('preview');
    var message = form.querySelector('textarea[name="message"]');
    var timer = null;
    var asked = 0;

    function refresh() {
      var mine = ++asked;
      var body = new URLSearchParams(new FormData(form));
      fetch(form.getAttribute('data-preview'), {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
        credentials: 'same-origin',
      })
        .then(function (response) {
          return response.json();
        })
        .then(function (answer) {
          // An older answer arriving late never replaces a newer one.
          if (mine === asked) showPreview(section, answer);
        })
        .catch(function () {});
    }
    function later() {
      clearTimeout(timer);
      timer = setTimeout(refresh, PREVIEW_DELAY_MS);
    }
    form.addEventListener('input', later);
    form.addEventListener('change', later);

    form.querySelectorAll('[data-insert]').forEach(function (chip) {
      chip.hidden = false;
      chip.addEventListener('click', function () {
        var value = chip.getAttribute('data-insert');
        var start = message.selectionStart,
          end = message.selectionEnd;
        message.value = message.value.slice(0, start) + value + message.value.slice(end);
        message.focus();
        message.selectionStart = message.selectionEnd = start + value.length;
        later();
      });
    });
    form.querySelectorAll('.chip-text').forEach(function (code) {
      code.hidden = true;
    });

    // A second press while the first send is on its way would only be refused as a double submit: say so instead.
    form.addEventListener('submit', function (event) {
      if (form.getAttribute('data-submitting') === 'yes' && event.submitter && !event.submitter.hasAttribute('formaction')) event.preventDefault();
      else if (event.submitter && !event.submitter.hasAttribute('formaction')) form.setAttribute('data-submitting', 'yes');
    });
  });
})();

// Campaign progress: elements with data-progress poll their JSON until every message has settled.
(function () {
  'use strict';
  var POLL_MS = 2000;

  function poll(element) {
    var started = Date.now();
    fetch(element.getAttribute('data-progress'), { headers: { accept: 'application/json' }, credentials: 'same-origin' })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (progress) {
        if (!progress) return;
        element.querySelectorAll('[data-count]').forEach(function (node) {
          var value = progress[node.getAttribute('data-count')];
          if (value === undefined) return;
          node.textContent = value === '' ? 'not known yet' : String(value);
        });
        if (progress.done) {
          element.setAttribute('data-done', 'yes');
          var note = element.querySelector('[data-live-note]');
          if (note) note.hidden = true;
        } else {
          // A large campaign takes longer to count: ask less often, so a watching page never keeps the database busy.
          setTimeout(
            function () {
              poll(element);
            },
            POLL_MS + 4 * (Date.now() - started),
          );
        }
      })
      .catch(function () {});
  }

  document.addEventListener('DOMContentLoaded', function () {
    document.querySelectorAll('[data-progress]').forEach(function (element) {
      if (element.getAttribute('data-done') !== 'yes')
        setTimeout(function () {
          poll(element);
        }, POLL_MS);
    });
  });
})();
