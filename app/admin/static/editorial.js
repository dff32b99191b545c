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
})();
