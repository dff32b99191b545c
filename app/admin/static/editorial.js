// The admin's own script (templates/admin/editorial_base.html), a file: the admin's Content-Security-Policy runs no
// inline script and no inline handler (app/http/csp.py). What Flask-Admin's templates did with onclick="…", ours
// (templates/admin/) say with data- attributes, done here; and the links Flask-Admin writes as
// href="javascript:void(0)" are never followed (the policy would refuse it; their own handlers still run).
(function () {
  'use strict';

  document.addEventListener('click', function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    if (target.closest('a[href^="javascript:"]')) event.preventDefault();

    var action = target.closest('[data-admin-action]'); // a bulk action (templates/admin/actions.html)
    if (action && window.modelActions) {
      event.preventDefault();
      window.modelActions.execute(action.getAttribute('data-admin-action'));
      return;
    }
    var add = target.closest('[data-inline-add]'); // "+ Серия" (templates/admin/model/inline_list_base.html)
    if (add && window.faForm) {
      event.preventDefault();
      window.faForm.addInlineField(add, add.getAttribute('data-inline-add'));
      return;
    }
    var asks = target.closest('[data-confirm]'); // a row's delete (templates/admin/model/row_actions.html)
    if (asks && !window.confirm(asks.getAttribute('data-confirm'))) event.preventDefault();
  }, true);

  // A file over its field's limit is refused here, before the form is sent: a refusal from the server (413)
  // would lose what the editor typed on the page.
  document.addEventListener('change', function (event) {
    var input = event.target;
    if (!input.matches || !input.matches('input[type=file][data-max-bytes]')) return;
    var limit = Number(input.dataset.maxBytes);
    var file = input.files && input.files[0];
    var note = input.parentNode.querySelector('.editorial-file-error');
    if (!note) {
      note = document.createElement('div');
      note.className = 'editorial-file-error text-danger';
      input.parentNode.appendChild(note);
    }
    note.textContent = '';
    if (file && file.size > limit) {
      note.textContent = 'Файл «' + file.name + '» больше ' + Math.round(limit / 1048576) + ' МБ: выберите другой.';
      input.value = '';
    }
  });

  // Names for what Flask-Admin and select2 draw without one (issue 31, accessibility): a list's checkboxes say which
  // row they choose, the row buttons' column has a header, a chosen value's "×" says what it removes. Here rather
  // than in each list template: every list of the admin (and any list template a view brings) gets them.
  function rowName(checkbox) {
    var row = checkbox.closest('tr');
    var cells = row ? row.querySelectorAll('td:not(.list-buttons-column)') : [];
    for (var i = 0; i < cells.length; i += 1) {
      var text = cells[i].textContent.trim();
      if (text && !cells[i].querySelector('input[type=checkbox]')) return text.slice(0, 80);
    }
    return checkbox.value;
  }

  function nameThings(root) {
    root.querySelectorAll('input.action-checkbox:not([aria-label])').forEach(function (box) {
      box.setAttribute('aria-label', 'Выбрать: ' + rowName(box));
    });
    root.querySelectorAll('input.action-rowtoggle:not([aria-label])').forEach(function (box) {
      box.setAttribute('aria-label', 'Выбрать все записи на странице');
    });
    root.querySelectorAll('table.model-list thead th').forEach(function (th) {
      if (!th.textContent.trim() && !th.querySelector('input')) {
        var hidden = document.createElement('span');
        hidden.className = 'sr-only';
        hidden.textContent = 'Действия';
        th.appendChild(hidden);
      }
    });
    // a value edited in place (x-editable) that shows nothing yet: named by its column
    root.querySelectorAll('a[data-role^="x-editable"]').forEach(function (link) {
      var cell = link.closest('td');
      var table = link.closest('table');
      var header = cell && table ? table.querySelectorAll('thead th')[cell.cellIndex] : null;
      var column = header ? header.textContent.trim() : 'значение';
      if (!link.textContent.trim()) link.setAttribute('aria-label', 'Изменить «' + column + '»: пусто');
      else link.removeAttribute('aria-label');
    });
    // select2's hidden text input that takes the focus calls itself a button: a text input is a combobox at most
    root.querySelectorAll('input.select2-focusser[role=button]').forEach(function (input) {
      input.setAttribute('role', 'combobox');
      input.setAttribute('aria-expanded', 'false');
    });
    root.querySelectorAll('.select2-search-choice-close:not([aria-label])').forEach(function (close) {
      var chosen = close.parentNode.textContent.trim();
      close.setAttribute('aria-label', 'Убрать «' + chosen + '»');
      close.setAttribute('role', 'button');
    });
  }

  function whenReady() {
    nameThings(document);
    new MutationObserver(function () { nameThings(document); })
      .observe(document.body, { childList: true, subtree: true });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', whenReady);
  else whenReady();
})();
