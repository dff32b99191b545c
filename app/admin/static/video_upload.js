// «Загрузка видео» of an episode (templates/admin/video_upload.html, app/admin/uploads.py): the file goes up with
// tus-js-client (vendor/tus.min.js) in chunks of the server's size; its progress bar says the bytes sent and the
// speed. A dropped connection is retried where it stopped; after a reload (or a closed tab) the same file chosen again
// resumes from the offset the server holds (tus-js-client keeps each upload's address in localStorage under the
// file's fingerprint). Once the whole file is there, «finish» asks the server to check it and make the job; its
// answer (a Russian reason for a file that cannot be used) is shown as it is.
(function () {
  'use strict';

  var section = document.getElementById('video-upload');
  if (!section || !window.tus) return;
  var find = function (name) { return section.querySelector('[data-upload-' + name + ']'); };
  var input = find('file');
  var start = find('start');
  var pause = find('pause');
  var abort = find('abort');
  var bar = find('bar');
  var status = find('status');
  var failure = find('error');
  var maxBytes = Number(section.dataset.maxBytes);
  var token = section.dataset.token;
  var tokenAt = Date.now();
  var TOKEN_AGE = 20 * 60 * 1000;  // a form's token lives 30 minutes (app/admin/forms.py)
  var upload = null;
  var samples = [];

  function size(bytes) {
    var units = [['ГБ', 1073741824], ['МБ', 1048576], ['КБ', 1024]];
    for (var i = 0; i < units.length; i += 1) {
      if (bytes >= units[i][1]) return (Math.round(bytes / units[i][1] * 10) / 10).toString().replace('.', ',') + ' ' + units[i][0];
    }
    return bytes + ' Б';
  }

  function say(text) { status.textContent = text; }

  function fail(text) {
    failure.textContent = text;
    failure.hidden = false;
  }

  function busy(running) {
    start.disabled = running || !input.files.length;
    input.disabled = running;
    pause.hidden = !running;
    abort.hidden = !running;
  }

  function freshToken() {
    if (Date.now() - tokenAt < TOKEN_AGE) return Promise.resolve(token);
    return fetch(section.dataset.tokenUrl, { credentials: 'same-origin', headers: { 'X-Requested-With': 'XMLHttpRequest' } })
      .then(function (answer) { return answer.ok ? answer.json() : { token: token }; })
      .then(function (body) {
        token = body.token;
        tokenAt = Date.now();
        return token;
      });
  }

  function reason(error) {
    var response = error && error.originalResponse;
    var body = response ? response.getBody() : '';
    if (body && body.charAt(0) !== '<') return body;
    if (!navigator.onLine || (response && response.getStatus() === 0)) {
      return 'Нет связи с сервером. Когда она вернётся, нажмите «Загрузить»: загрузка продолжится с того же места.';
    }
    return 'Загрузка не удалась. Попробуйте ещё раз: она продолжится с того же места.';
  }

  function progress(sent, total) {
    var now = Date.now();
    samples.push([now, sent]);
    while (samples.length > 2 && now - samples[0][0] > 5000) samples.shift();
    var speed = '';
    if (samples.length > 1 && now > samples[0][0]) {
      var rate = (sent - samples[0][1]) * 1000 / (now - samples[0][0]);
      if (rate > 0) speed = ', ' + size(rate) + '/с';
    }
    var percent = total ? Math.floor(sent * 100 / total) : 0;
    bar.style.width = percent + '%';
    bar.dataset.sent = String(sent);
    say('Загружено ' + size(sent) + ' из ' + size(total) + ' (' + percent + ' %)' + speed + '.');
  }

  function showJob() {
    return fetch(section.dataset.jobUrl, { credentials: 'same-origin', headers: { 'X-Requested-With': 'XMLHttpRequest' } })
      .then(function (answer) { return answer.json(); })
      .then(function (body) {
        var holder = document.querySelector('[data-episode-job]');
        if (!body.job || !holder) return;
        holder.textContent = '';
        var line = document.createElement('p');
        var link = document.createElement('a');
        link.href = body.job.url;
        link.textContent = 'Задача №' + body.job.id;
        link.setAttribute('data-job-link', '');
        line.appendChild(link);
        var shown = body.job.percent === null ? '' : ', ' + body.job.percent + ' %';
        line.appendChild(document.createTextNode(': ' + body.job.state_label + shown +
          (body.job.message ? '. ' + body.job.message : '')));
        line.setAttribute('data-new-job', body.job.finished ? 'finished' : 'unfinished');
        holder.appendChild(line);
        if (!body.job.finished) window.setTimeout(showJob, 2000);  // its state and progress, until it ends
      })
      .catch(function () { window.setTimeout(showJob, 10000); });
  }

  function finish(url) {
    say('Файл загружен. Проверяем его…');
    bar.style.width = '100%';
    return freshToken().then(function (current) {
      return fetch(url + '/finish', {
        method: 'POST', credentials: 'same-origin',
        headers: { 'X-CSRF-Token': current, 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' },
      });
    }).then(function (answer) {
      return answer.json().then(function (body) { return { ok: answer.ok, body: body }; });
    }).then(function (result) {
      busy(false);
      if (!result.ok) {
        say('');
        fail(result.body.error || 'Файл не принят.');
        return null;
      }
      say(result.body.message);
      section.dataset.received = String(result.body.received);
      section.dataset.done = 'true';
      return showJob();
    }).catch(function () {
      busy(false);
      fail('Нет ответа сервера. Выберите тот же файл и нажмите «Загрузить»: файл уже на сервере, проверка начнётся снова.');
    });
  }

  function begin() {
    var file = input.files[0];
    if (!file) return;
    failure.hidden = true;
    section.dataset.done = 'false';
    if (file.size > maxBytes) {
      fail('Файл больше ' + size(maxBytes) + ': такой не принимается.');
      return;
    }
    samples = [];
    upload = new window.tus.Upload(file, {
      endpoint: section.dataset.endpoint,
      chunkSize: Number(section.dataset.chunkBytes),
      retryDelays: [0, 1000, 3000, 5000, 10000, 20000],
      metadata: { filename: file.name, filetype: file.type || 'application/octet-stream' },
      removeFingerprintOnSuccess: false,
      onBeforeRequest: function (request) {
        request.setHeader('X-Requested-With', 'XMLHttpRequest');
        return freshToken().then(function (current) { request.setHeader('X-CSRF-Token', current); });
      },
      onProgress: progress,
      onSuccess: function () { finish(upload.url); },
      onError: function (error) {
        busy(false);
        fail(reason(error));
      },
    });
    busy(true);
    upload.findPreviousUploads().then(function (previous) {
      if (previous.length) {
        upload.resumeFromPreviousUpload(previous[0]);
        say('Продолжаем прерванную загрузку…');
      } else {
        say('Загрузка начинается…');
      }
      upload.start();
    });
  }

  input.addEventListener('change', function () { busy(false); failure.hidden = true; });
  busy(false);  // a file chosen before this script ran (a slow page, a browser that keeps the choice)
  section.dataset.ready = 'true';
  start.addEventListener('click', begin);
  pause.addEventListener('click', function () {
    if (!upload) return;
    upload.abort();
    busy(false);
    say(status.textContent + ' Приостановлено: нажмите «Загрузить», чтобы продолжить.');
  });
  abort.addEventListener('click', function () {
    if (!upload || !window.confirm('Отменить загрузку? Загруженная часть будет удалена.')) return;
    upload.abort(true).then(function () {
      busy(false);
      bar.style.width = '0%';
      say('Загрузка отменена.');
    });
  });

  // An upload left unfinished in this browser (a reload, a closed tab): say which file to choose again.
  window.tus.defaultOptions.urlStorage.findAllUploads().then(function (stored) {
    var endpoint = section.dataset.endpoint;
    var mine = stored.filter(function (entry) { return entry.urlStorageKey.indexOf(endpoint) !== -1; });
    if (!mine.length || status.textContent) return;
    var name = mine[0].metadata && mine[0].metadata.filename;
    say('Есть незаконченная загрузка' + (name ? ' файла «' + name + '»' : '') +
      ': выберите тот же файл и нажмите «Загрузить», она продолжится с того места, где остановилась.');
  });
})();
