// The media library's picker (app/admin/media.py), a file as the admin's Content-Security-Policy wants. Every picture
// field of a form (an input with data-picture-kind: a title's poster, an episode's frame, a person's photo, a slide's
// image) gets a preview of its picture and a "Выбрать из медиатеки" button; the button opens a dialog listing the
// library's pictures of that kind as thumbnails (buttons: Tab or the arrow keys move, Enter picks, Escape closes),
// and a pick fills the field. The page is built with createElement and textContent only: no markup from data.
(function () {
  'use strict';

  var script = document.currentScript;
  if (!script) return;
  var pickUrl = script.getAttribute('data-pick');
  var mediaPrefix = script.getAttribute('data-media');
  var thumbBase = script.getAttribute('data-thumb');
  var dialog = null;
  var target = null;

  function shownAddress(value) {
    if (value.indexOf(mediaPrefix) === 0 && value.slice(mediaPrefix.length).split('/').length === 2) {
      return thumbBase + value.slice(mediaPrefix.length);
    }
    if (/^\/[^/\\]/.test(value) || /^https?:\/\//i.test(value)) return value;
    return '';
  }

  function showPreview(input) {
    var field = input.nextElementSibling;
    if (!field || !field.classList.contains('picture-field')) return;
    var preview = field.querySelector('img');
    var address = shownAddress(input.value.trim());
    preview.hidden = !address;
    if (address) {
      preview.onerror = function () { // not a library picture after all: the picture itself
        preview.onerror = null;
        if (preview.getAttribute('src') !== input.value.trim()) preview.src = input.value.trim();
      };
      preview.src = address;
    } else {
      preview.removeAttribute('src');
    }
  }

  function decorate(input) {
    if (input.dataset.pictureReady || (input.name || '').indexOf('-_-') !== -1) return;
    input.dataset.pictureReady = '1';
    var field = document.createElement('div');
    field.className = 'picture-field';
    var preview = document.createElement('img');
    preview.className = 'picture-preview';
    preview.alt = 'Текущая картинка';
    var open = document.createElement('button');
    open.type = 'button';
    open.className = 'btn btn-outline-secondary btn-sm picture-open';
    open.textContent = 'Выбрать из медиатеки';
    field.appendChild(preview);
    field.appendChild(open);
    input.insertAdjacentElement('afterend', field);
    showPreview(input);
  }

  function decorateAll(root) {
    root.querySelectorAll('input[data-picture-kind]').forEach(decorate);
  }

  function makeDialog() {
    dialog = document.createElement('dialog');
    dialog.className = 'picture-picker';
    dialog.setAttribute('aria-labelledby', 'picture-picker-title');
    var heading = document.createElement('h2');
    heading.id = 'picture-picker-title';
    heading.className = 'h5';
    var all = document.createElement('label');
    all.className = 'picture-all';
    var allBox = document.createElement('input');
    allBox.type = 'checkbox';
    allBox.addEventListener('change', function () { load(); });
    all.appendChild(allBox);
    all.appendChild(document.createTextNode(' Все виды картинок'));
    var status = document.createElement('p');
    status.className = 'picture-status text-muted';
    status.setAttribute('role', 'status');
    var list = document.createElement('ul');
    list.className = 'picture-list';
    var close = document.createElement('button');
    close.type = 'button';
    close.className = 'btn btn-secondary btn-sm';
    close.textContent = 'Закрыть';
    close.addEventListener('click', function () { dialog.close(); });
    [heading, all, status, list, close].forEach(function (part) { dialog.appendChild(part); });
    dialog.addEventListener('close', function () { if (target) target.focus(); });
    list.addEventListener('keydown', function (event) {
      var buttons = Array.prototype.slice.call(list.querySelectorAll('button'));
      var at = buttons.indexOf(document.activeElement);
      var step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
      if (at === -1 || !step) return;
      event.preventDefault();
      buttons[Math.max(0, Math.min(buttons.length - 1, at + step))].focus();
    });
    document.body.appendChild(dialog);
  }

  function pick(address) {
    target.value = address;
    target.dispatchEvent(new Event('input', { bubbles: true }));
    target.dispatchEvent(new Event('change', { bubbles: true }));
    dialog.close();
  }

  function load() {
    var kind = target.getAttribute('data-picture-kind');
    var everything = dialog.querySelector('.picture-all input').checked;
    var list = dialog.querySelector('.picture-list');
    var status = dialog.querySelector('.picture-status');
    list.replaceChildren();
    status.textContent = 'Загрузка…';
    fetch(pickUrl + (everything ? '' : '?kind=' + encodeURIComponent(kind)), { credentials: 'same-origin' })
      .then(function (answer) {
        if (!answer.ok) throw new Error(String(answer.status));
        return answer.json();
      })
      .then(function (found) {
        status.textContent = found.pictures.length ? 'Картинок: ' + found.total + (found.total > found.pictures.length
          ? ', показаны ' + found.pictures.length + ' новых' : '') + '.' : 'В медиатеке нет таких картинок.';
        found.pictures.forEach(function (picture) {
          var item = document.createElement('li');
          var button = document.createElement('button');
          button.type = 'button';
          button.className = 'picture-choice';
          button.setAttribute('aria-label', picture.kind + ': ' + picture.name);
          button.dataset.address = picture.address;
          var thumb = document.createElement('img');
          thumb.src = picture.thumb;
          thumb.alt = '';
          thumb.loading = 'lazy';
          var name = document.createElement('span');
          name.textContent = picture.name;
          button.appendChild(thumb);
          button.appendChild(name);
          button.addEventListener('click', function () { pick(picture.address); });
          item.appendChild(button);
          list.appendChild(item);
        });
        var first = list.querySelector('button');
        if (first) first.focus();
      })
      .catch(function () { status.textContent = 'Медиатека не открылась: попробуйте ещё раз.'; });
  }

  document.addEventListener('click', function (event) {
    var open = event.target instanceof Element ? event.target.closest('.picture-open') : null;
    if (!open) return;
    target = open.parentNode.previousElementSibling;
    if (!dialog) makeDialog();
    var label = document.querySelector('label[for="' + target.id + '"]');
    dialog.querySelector('h2').textContent = 'Медиатека: ' + (label ? label.textContent.trim() : 'картинка');
    dialog.showModal();
    load();
  });

  document.addEventListener('input', function (event) {
    var input = event.target;
    if (input.matches && input.matches('input[data-picture-kind]')) showPreview(input);
  });

  function start() {
    decorateAll(document);
    new MutationObserver(function (changes) { // an inline row added ("+ Серия") brings its fields
      changes.forEach(function (change) {
        change.addedNodes.forEach(function (node) { if (node instanceof Element) decorateAll(node); });
      });
    }).observe(document.body, { childList: true, subtree: true });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
