// An episode's page «Заставка и титры» (templates/admin/markers.html, app/admin/markers.py), a file as the admin's
// policy wants: the preview in the frame is the real player at this origin, so its <video> is read directly; the
// buttons «Начало заставки», «Конец заставки», «Начало титров» write its current time (to a tenth of a second) into
// their fields, and the line above them shows that time while the frame plays.
(function () {
  'use strict';

  var section = document.getElementById('markers');
  var frame = section && section.querySelector('[data-markers-frame]');
  if (!frame) return;
  var now = section.querySelector('[data-markers-now]');
  var buttons = section.querySelectorAll('[data-mark]');

  function video() {
    try {
      return frame.contentDocument && frame.contentDocument.querySelector('video');
    } catch (error) {
      return null; // not this origin after all: nothing to read
    }
  }

  function clock(seconds) {
    var whole = Math.floor(seconds);
    var minutes = Math.floor(whole / 60);
    var rest = whole % 60;
    return minutes + ':' + (rest < 10 ? '0' : '') + rest + '.' + Math.floor((seconds - whole) * 10);
  }

  function tick() {
    var element = video();
    var ready = Boolean(element) && element.readyState > 0 && !element.src.includes('not-available');
    buttons.forEach(function (button) { button.disabled = !ready; });
    now.textContent = ready ? clock(element.currentTime) : '—';
  }

  buttons.forEach(function (button) {
    button.addEventListener('click', function () {
      var element = video();
      var field = document.getElementById(button.dataset.mark);
      if (!element || !field) return;
      field.value = (Math.round(element.currentTime * 10) / 10).toFixed(1);
      field.dispatchEvent(new Event('input', { bubbles: true }));
      field.classList.add('is-valid');
    });
  });
  setInterval(tick, 250);
  tick();
})();
