// A job's page (templates/admin/jobs/job.html), a file as the admin's policy wants: while the job is unfinished, its
// state address (app/admin/jobs.py) is read every second and the progress bar, the count, the state and the message
// follow it; once the job has ended, the cancel goes and the report is loaded below, without reloading the page.
(function () {
  'use strict';

  var section = document.getElementById('job');
  if (!section || section.dataset.finished === 'true') return;
  var every = 1000;
  var find = function (name) { return section.querySelector('[data-' + name + ']'); };
  var bar = find('job-bar');

  function show(job) {
    find('job-state').textContent = job.state_label;
    find('job-attempts').textContent = job.attempts > 1 ? '(попытка ' + job.attempts + ')' : '';
    find('job-message').textContent = job.message || '';
    var count = job.total === null ? 'Ход пока не известен.'
      : job.done + ' из ' + job.total + (job.percent === null ? '' : ' (' + job.percent + ' %)');
    find('job-count').textContent = count;
    var width = job.percent === null ? (job.finished ? 100 : 0) : job.percent;
    bar.style.width = width + '%';
    if (job.finished) bar.classList.remove('progress-bar-striped', 'progress-bar-animated');
  }

  function finish() {
    section.dataset.finished = 'true';
    find('job-cancel').hidden = true;
    fetch(section.dataset.reportUrl, { credentials: 'same-origin' })
      .then(function (answer) { return answer.ok ? answer.text() : ''; })
      .then(function (html) { find('job-report').innerHTML = html; });  // the server's escaped fragment
  }

  function poll() {
    fetch(section.dataset.stateUrl, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then(function (answer) {
        if (!answer.ok) throw new Error(String(answer.status));
        return answer.json();
      })
      .then(function (job) {
        show(job);
        if (job.finished) finish();
        else window.setTimeout(poll, every);
      })
      .catch(function () { window.setTimeout(poll, every * 5); });  // a signed-out session or a restart: slower
  }

  window.setTimeout(poll, every);
})();
