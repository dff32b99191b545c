// The content list's own script (templates/admin/model/content_list.html), a file as the admin's policy wants.
// - The filter bar: a choice made shows the list at once; the choices left at "Все" are not sent.
// - "Select all N matching": with every row of the page ticked, the editor may choose the whole filtered set; a bulk
//   action then sends the list's address (its filters and search) instead of the rows, with the count the editor
//   saw, which the server checks again (app/admin/bulk.py).
(function () {
  'use strict';

  // x-editable (the list's values edited in place) reads its data-source with new Function(), which the admin's
  // policy refuses (no 'unsafe-eval'): the published column's choices are plain JSON, read here with JSON.parse before
  // Flask-Admin's form script sets the editors up on the page's ready.
  var utils = window.jQuery && window.jQuery.fn.editableutils;
  if (utils) {
    utils.tryParseJson = function (value, safe) {
      if (typeof value !== 'string' || !/^[{[].*[}\]]$/.test(value)) return value;
      try {
        return JSON.parse(value);
      } catch (error) {
        if (safe) return value;
        throw error;
      }
    };
  }

  var bar = document.querySelector('.editorial-filter-bar');
  if (bar) {
    bar.addEventListener('change', function (event) {
      if (event.target.matches('[data-filter-choice]')) bar.requestSubmit();
    });
    bar.addEventListener('submit', function () {
      bar.querySelectorAll('[data-filter-choice]').forEach(function (select) {
        select.disabled = select.value === '';
      });
    });
  }

  var banner = document.querySelector('.editorial-select-all');
  if (!banner) return;
  var count = Number(banner.dataset.count);
  var shown = Number(banner.dataset.shown);
  var note = banner.querySelector('[data-select-note]');
  var more = banner.querySelector('[data-select-matching]');
  var clear = banner.querySelector('[data-select-clear]');
  var pageNote = note.textContent;
  var matching = false;

  function boxes() {
    return Array.prototype.slice.call(document.querySelectorAll('input.action-checkbox'));
  }

  function refresh() {
    var all = boxes().length > 0 && boxes().every(function (box) { return box.checked; });
    if (!all) matching = false;
    banner.classList.toggle('d-none', !all || count <= shown);
    note.textContent = matching ? 'Выбраны все подходящие записи: ' + count + '.' : pageNote;
    more.classList.toggle('d-none', matching);
    clear.classList.toggle('d-none', !matching);
  }

  // Flask-Admin's own script ticks the page's boxes on the header's change: read them after it.
  document.addEventListener('change', function (event) {
    if (event.target.matches('input.action-checkbox, input.action-rowtoggle')) setTimeout(refresh, 0);
  });
  more.addEventListener('click', function () { matching = true; refresh(); });
  clear.addEventListener('click', function () {
    matching = false;
    boxes().forEach(function (box) { box.checked = false; });
    var toggle = document.querySelector('input.action-rowtoggle');
    if (toggle) toggle.checked = false;
    refresh();
  });

  var actions = window.modelActions;
  if (!actions) return;
  var execute = actions.execute;
  var titles = {};
  document.querySelectorAll('[data-admin-action]').forEach(function (link) {
    titles[link.getAttribute('data-admin-action')] = link.textContent.trim();
  });
  actions.execute = function (name) {
    if (!matching) return execute.call(actions, name);
    if (!window.confirm((titles[name] || name) + ': все подходящие записи, ' + count + '?')) return false;
    var form = document.getElementById('action_form');
    form.querySelectorAll('input.action-checkbox, input[name=all_matching]').forEach(function (input) {
      input.remove();
    });
    form.querySelector('#action').value = name;
    var all = document.createElement('input');
    all.type = 'hidden';
    all.name = 'all_matching';
    all.value = String(count);
    form.appendChild(all);
    // (form.action is its input named "action": the attribute is read and set)
    form.setAttribute('action', form.getAttribute('action').split('?')[0] + window.location.search);
    form.submit();
    return false;
  };
})();
