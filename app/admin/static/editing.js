// Editing comforts of the admin (issue 31), a file like editorial.js (the admin's Content-Security-Policy runs no
// inline script): a warning before leaving a form with unsaved changes, and ordering by dragging (SortableJS,
// vendor/sortable.min.js) or by the move buttons (the keyboard's way) in every [data-sortable] list: a season's
// episode rows (their number inputs [data-sort-number] become 1, 2, 3… in the order the rows stand) and the order
// pages (templates/admin/order.html: the ids are sent in that order, [data-sort-label] shows the place).
(function () {
  'use strict';

  var dirty = false;
  var submitting = false;

  // --- unsaved changes
  function watch(form) {
    if (form.dataset.unsavedWatch) return;
    form.dataset.unsavedWatch = '1';
    form.addEventListener('input', function () { dirty = true; });
    form.addEventListener('change', function () { dirty = true; });
    form.addEventListener('submit', function () { submitting = true; });
  }
  document.querySelectorAll('form.admin-form').forEach(watch);
  window.addEventListener('beforeunload', function (event) {
    if (!dirty || submitting) return undefined;
    event.preventDefault();
    event.returnValue = 'Изменения не сохранены. Уйти со страницы?';
    return event.returnValue;
  });
  window.addEventListener('pageshow', function () { submitting = false; });

  // --- ordering
  var live = document.createElement('div'); // what a move did, for screen readers
  live.className = 'sr-only';
  live.setAttribute('aria-live', 'polite');
  document.body.appendChild(live);

  function itemsOf(list) {
    return Array.prototype.filter.call(list.children, function (child) {
      return child.matches('[data-sortable-item]');
    });
  }

  function removed(item) {
    var box = item.querySelector('input[type=checkbox][name^="del-"]');
    return Boolean(box && box.checked);
  }

  function renumber(list) {
    var place = 0;
    itemsOf(list).forEach(function (item) {
      if (removed(item)) return;
      place += 1;
      var number = item.querySelector('[data-sort-number]');
      if (number && number.value !== String(place)) {
        number.value = String(place);
        dirty = true;
      }
      var label = item.querySelector('[data-sort-label]');
      if (label) label.textContent = String(place);
    });
  }

  function nameOf(item) {
    var title = item.querySelector('.order-title, [data-sort-title]');
    if (!title) return 'Строка';
    return '«' + (title.value !== undefined ? title.value : title.textContent).trim() + '»';
  }

  function setUp(list) {
    if (list.dataset.sortableReady) return;
    list.dataset.sortableReady = '1';
    if (window.Sortable) {
      window.Sortable.create(list, {
        handle: '.sort-handle',
        draggable: '[data-sortable-item]',
        animation: 120,
        forceFallback: true, // the same drag with a mouse, a pen or a finger (no native drag image)
        onEnd: function () { dirty = true; renumber(list); },
      });
    }
  }

  document.querySelectorAll('[data-sortable]').forEach(setUp);

  // a row added by "+ Серия" takes the next number; a season added brings its own list
  new MutationObserver(function (records) {
    records.forEach(function (record) {
      record.addedNodes.forEach(function (node) {
        if (node.nodeType !== 1) return;
        if (node.matches('[data-sortable-item]') && node.parentElement.matches('[data-sortable]')) {
          var number = node.querySelector('[data-sort-number]');
          var list = node.parentElement;
          if (number && !number.value) {
            var highest = 0;
            itemsOf(list).forEach(function (item) {
              var other = item.querySelector('[data-sort-number]');
              if (other && item !== node) highest = Math.max(highest, Number(other.value) || 0);
            });
            number.value = String(highest + 1);
          }
        }
        node.querySelectorAll('[data-sortable]').forEach(setUp);
        node.querySelectorAll('form.admin-form').forEach(watch);
      });
    });
  }).observe(document.body, { childList: true, subtree: true });

  document.addEventListener('click', function (event) {
    var target = event.target instanceof Element ? event.target : null;
    var button = target && target.closest('[data-move]');
    if (!button) return;
    var item = button.closest('[data-sortable-item]');
    var list = item && item.parentElement;
    if (!list || !list.matches('[data-sortable]')) return;
    event.preventDefault();
    var up = button.getAttribute('data-move') === 'up';
    var items = itemsOf(list);
    var index = items.indexOf(item);
    var other = items[up ? index - 1 : index + 1];
    if (!other) {
      live.textContent = nameOf(item) + (up ? ': уже первая' : ': уже последняя');
      return;
    }
    list.insertBefore(item, up ? other : other.nextSibling);
    dirty = true;
    renumber(list);
    button.focus();
    live.textContent = nameOf(item) + ': теперь ' + (itemsOf(list).indexOf(item) + 1) + '-я';
  });
})();
