// The job owner's dashboard: polls /api/status every two seconds and draws it. Every string
// that comes from the run goes into the page as text (textContent), never as markup.
'use strict';

(() => {
  const POLL_MS = 2000;
  const THROUGHPUT_POINTS = 300;  // ten minutes of polls

  const byId = (id) => document.getElementById(id);
  const chartsAvailable = typeof window.Chart !== 'undefined';

  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function setText(id, text) { byId(id).textContent = text; }

  // ---- words and numbers -----------------------------------------------------------------
  const fmtInt = (n) => Number(n || 0).toLocaleString('en-US', { maximumFractionDigits: 0 });
  function fmtRate(x) {
    const v = Number(x || 0);
    return v.toLocaleString('en-US', { maximumFractionDigits: v >= 100 ? 0 : v >= 10 ? 1 : 2 });
  }
  const fmtLoss = (x) => (x === null || x === undefined || !isFinite(x) ? '–' : Number(x).toFixed(4));
  const fmtCredit = (x) => Number(x || 0).toLocaleString('en-US', { maximumFractionDigits: 2 });
  const fmtTime = (ms) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  // Blocks as the desktop window words them: first to last, both included.
  const fmtBlocks = (first, last) => (last - first <= 1 ? `block ${first}` : `blocks ${first}–${last - 1}`);

  // How peers reach a volunteer (never where).
  const REACH_WORDS = {
    local: 'same host',
    direct: 'direct',
    router_mapping: 'port mapping',
    relayed: 'relay',
    reversed: 'reversal',
    unreachable: 'unreachable',
    unknown: 'not measured',
  };
  const BAN_WORDS = {
    RING_PARTNERS_REJECT: (b) => `${fmtInt(b.value)} of its ${fmtInt(b.limit)} ring partners rejected its averages`,
    CAUGHT_IN_SPOT_CHECKS: (b) => `${fmtInt(b.value)} of the ${fmtInt(b.limit)} stages it sends to caught its activations wrong in spot-checks`,
    GRADIENTS_CAUGHT_IN_SPOT_CHECKS: (b) => `${fmtInt(b.value)} of the ${fmtInt(b.limit)} stages it returns gradients to caught them wrong in spot-checks`,
  };
  const banWords = (b) => (BAN_WORDS[b.code] ? BAN_WORDS[b.code](b) : `banned (${b.code.toLowerCase().replaceAll('_', ' ')})`);

  function cssColour(name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); }

  // ---- charts ----------------------------------------------------------------------------
  let lossChart = null;
  let throughputChart = null;
  const throughput = [];  // {unix_ms, rate} of each poll since the page opened

  function lineDataset(label, colour, fill) {
    return {
      label, data: [], borderColor: colour, backgroundColor: fill ? colour + '22' : colour,
      borderWidth: 2, pointRadius: 0, pointHitRadius: 6, tension: 0.25, fill, spanGaps: true,
    };
  }

  function chartOptions(yTitle, legend) {
    const grid = cssColour('--border');
    const ticks = cssColour('--secondary');
    return {
      animation: false, responsive: true, maintainAspectRatio: false, parsing: false,
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      plugins: {
        legend: { display: legend, position: 'top', align: 'end', labels: { color: ticks, boxWidth: 12, boxHeight: 2 } },
        tooltip: { callbacks: { title: (items) => (items.length ? `${items[0].parsed.x.toFixed(1)} ${items[0].chart.options.scales.x.title.text}` : '') } },
      },
      scales: {
        x: { type: 'linear', title: { display: true, text: 'minutes', color: ticks }, grid: { color: grid }, ticks: { color: ticks } },
        y: { title: { display: !!yTitle, text: yTitle, color: ticks }, grid: { color: grid }, ticks: { color: ticks } },
      },
    };
  }

  // Pixels of the canvas in about `hex`'s colour: the page's own evidence that a curve was drawn.
  function pixelsOfColour(canvas, hex) {
    const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    try {
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4) {
        const off = Math.abs(data[i] - want[0]) + Math.abs(data[i + 1] - want[1]) + Math.abs(data[i + 2] - want[2]);
        if (data[i + 3] > 128 && off < 60) ++n;
      }
      return n;
    } catch (e) {
      return 0;
    }
  }

  function drawLoss(status) {
    const all = status.loss.concat(status.validation);
    byId('loss-empty').hidden = all.length > 0;
    if (!chartsAvailable) return;
    const start = all.length ? Math.min(...all.map((p) => p.unix_ms)) : 0;
    const points = (curve) => curve.map((p) => ({ x: (p.unix_ms - start) / 60000, y: p.loss }));
    if (!lossChart) {
      lossChart = new window.Chart(byId('loss-chart'), {
        type: 'line',
        data: { datasets: [lineDataset('Training loss', cssColour('--accent'), false), lineDataset('Validation loss', cssColour('--validation'), false)] },
        options: chartOptions('loss', true),
      });
      lossChart.data.datasets[1].pointRadius = 2.5;
    }
    lossChart.data.datasets[0].data = points(status.loss);
    lossChart.data.datasets[1].data = points(status.validation);
    lossChart.update('none');
    const canvas = byId('loss-chart');
    canvas.dataset.lossPoints = String(lossChart.getDatasetMeta(0).data.length);
    canvas.dataset.validationPoints = String(lossChart.getDatasetMeta(1).data.length);
    canvas.dataset.trainingPixels = String(pixelsOfColour(canvas, cssColour('--accent')));
    canvas.dataset.validationPixels = String(pixelsOfColour(canvas, cssColour('--validation')));
  }

  function drawThroughput(status) {
    throughput.push({ unix_ms: Date.now(), rate: status.totals.samples_per_s });
    if (throughput.length > THROUGHPUT_POINTS) throughput.shift();
    if (!chartsAvailable) return;
    if (!throughputChart) {
      throughputChart = new window.Chart(byId('throughput-chart'), {
        type: 'line',
        data: { datasets: [lineDataset('samples/s', cssColour('--accent'), true)] },
        options: chartOptions('', false),
      });
      throughputChart.options.scales.y.beginAtZero = true;
    }
    // Seconds while the page is young, minutes after.
    const start = throughput[0].unix_ms;
    const minutes = throughput[throughput.length - 1].unix_ms - start >= 180000;
    throughputChart.options.scales.x.title.text = minutes ? 'minutes' : 'seconds';
    throughputChart.data.datasets[0].data = throughput.map((p) => ({ x: (p.unix_ms - start) / (minutes ? 60000 : 1000), y: p.rate }));
    throughputChart.update('none');
    byId('throughput-chart').dataset.points = String(throughput.length);
  }

  // ---- sections --------------------------------------------------------------------------
  function drawTotals(status) {
    const t = status.totals;
    document.title = `Rookery · ${status.job_id}`;
    setText('job-id', status.job_id);
    setText('tile-volunteers', fmtInt(t.volunteers));
    setText('tile-volunteers-sub', `in ${fmtInt(status.pipeline_count)} pipeline${status.pipeline_count === 1 ? '' : 's'}`);
    setText('tile-rate', fmtRate(t.samples_per_s));
    setText('tile-samples', fmtInt(t.samples));
    const last = status.validation.length ? status.validation[status.validation.length - 1].loss : null;
    const evaluation = status.evaluation;
    setText('tile-validation', fmtLoss(evaluation ? evaluation.validation_loss : last));
    setText('tile-validation-sub', evaluation ? `snapshot ${fmtInt(evaluation.snapshot)}` : 'no evaluation yet');
    setText('tile-plan', `v${fmtInt(status.plan_version)}`);
    setText('tile-plan-sub', `${fmtInt(status.replans)} re-plan${status.replans === 1 ? '' : 's'}`);
    setText('tile-banned', fmtInt(t.banned));
  }

  function drawMeters(status) {
    const list = byId('pipeline-meters');
    const top = Math.max(1e-9, ...status.pipelines.map((p) => p.samples_per_s));
    list.replaceChildren(...status.pipelines.map((p) => {
      const li = el('li');
      const label = el('div', 'meter-label');
      label.append(el('span', '', `Pipeline ${p.pipeline + 1}`), el('span', 'rate', `${fmtRate(p.samples_per_s)} samples/s`));
      const meter = el('div', 'meter');
      const fill = el('div', 'meter-fill');
      fill.style.width = `${Math.round((100 * p.samples_per_s) / top)}%`;
      meter.append(fill);
      li.append(label, meter);
      return li;
    }));
  }

  function drawPipelines(status) {
    const box = byId('pipelines');
    if (!status.pipelines.length) {
      box.replaceChildren(el('p', 'empty', 'No plan yet: the coordinator plans pipelines once volunteers hold the data.'));
    } else {
      box.replaceChildren(...status.pipelines.map((p) => {
        const row = el('div', 'pipeline');
        row.dataset.pipeline = String(p.pipeline);
        const head = el('div', 'pipeline-head');
        head.append(el('div', 'pipeline-name', `Pipeline ${p.pipeline + 1}`), el('div', 'pipeline-rate', `${fmtRate(p.samples_per_s)} samples/s`));
        const stages = el('ol', 'stages');
        for (const s of p.stages) {
          const li = el('li', 'stage');
          li.append(el('div', 'stage-name', `Stage ${s.stage + 1}`), el('div', 'stage-blocks', fmtBlocks(s.first_block, s.last_block)));
          const holders = el('ul', 'holders');
          for (const name of s.volunteers) holders.append(el('li', 'chip', name));
          li.append(holders);
          stages.append(li);
        }
        row.append(head, stages);
        return row;
      }));
    }
    const waiting = status.volunteers.filter((v) => v.pipeline < 0).map((v) => v.volunteer);
    const unseated = byId('unseated');
    unseated.hidden = waiting.length === 0;
    unseated.textContent = `Waiting for a seat: ${waiting.join(', ')}`;
  }

  function drawEvaluation(status) {
    const box = byId('evaluation');
    const e = status.evaluation;
    if (!e) return;
    const meta = el('div', 'eval-meta');
    const fact = (k, v) => {
      const d = el('div');
      d.append(el('div', 'k', k), el('div', 'v', v));
      meta.append(d);
    };
    fact('Validation loss', fmtLoss(e.validation_loss));
    if (e.kind === 'classes') fact('Accuracy', `${(100 * e.accuracy).toFixed(1)} %`);
    fact('Held-out samples', fmtInt(e.held_out_samples));
    fact('Snapshot', fmtInt(e.snapshot));
    fact('At', fmtTime(e.unix_ms));
    const parts = [meta];
    if (e.kind === 'text') {
      const sample = el('p', 'sample');
      sample.id = 'sample';
      const prompt = el('span', 'prompt', e.prompt);
      prompt.id = 'sample-prompt';
      const text = el('span', 'generated', e.text);
      text.id = 'sample-text';
      sample.append(prompt, text);
      const legend = el('div', 'legend');
      legend.append(el('span', 'swatch prompt'), 'the prompt', el('span', 'swatch generated'), 'what the model wrote after it');
      parts.push(sample, legend);
    } else if (e.kind === 'classes') {
      const table = el('table', 'table');
      table.id = 'predictions';
      const head = el('tr');
      head.append(el('th', '', 'Example'), el('th', 'num', 'Class'), el('th', 'num', 'Predicted'), el('th', '', ''));
      const body = el('tbody');
      e.predictions.forEach((p, i) => {
        const tr = el('tr');
        const right = p.label === p.predicted;
        tr.append(el('td', 'muted', `#${i + 1}`), el('td', 'num', p.label), el('td', 'num', p.predicted), el('td', right ? 'right' : 'wrong', right ? '✓' : '✗'));
        body.append(tr);
      });
      const thead = el('thead');
      thead.append(head);
      table.append(thead, body);
      parts.push(table);
    }
    box.replaceChildren(...parts);
  }

  function drawArchive(status) {
    const a = status.archive;
    const line = byId('archive-line');
    const list = byId('restorations');
    if (!a) {
      line.textContent = 'This coordinator keeps no archive of the model.';
      list.replaceChildren();
      return;
    }
    line.textContent = a.latest_snapshot
      ? `Snapshot ${fmtInt(a.latest_snapshot)} of the whole model, collected at ${fmtTime(a.latest_unix_ms)} under plan v${fmtInt(a.latest_plan_version)}.`
      : 'No snapshot yet: the archive collects the blocks from their holders.';
    // Newest first; the coordinator lists them oldest first.
    list.replaceChildren(...a.restorations.slice().reverse().map((r) => {
      const li = el('li', 'restoration');
      li.dataset.firstBlock = String(r.first_block);
      li.dataset.lastBlock = String(r.last_block);
      li.dataset.snapshot = String(r.snapshot);
      const what = fmtBlocks(r.first_block, r.last_block);
      li.append(`${what.charAt(0).toUpperCase()}${what.slice(1)} came back from snapshot ${fmtInt(r.snapshot)} `,
        el('span', 'when', `at ${fmtTime(r.unix_ms)}`), ': no live volunteer held them.');
      return li;
    }));
  }

  function drawLeaderboard(status) {
    const body = byId('leaderboard').tBodies[0];
    body.replaceChildren(...status.leaderboard.map((r) => {
      const tr = el('tr');
      tr.dataset.credit = String(r.confirmed_credit);
      const rank = el('td', 'num');
      rank.append(el('span', r.rank <= 3 ? 'rank podium' : 'rank', r.rank));
      tr.append(rank, el('td', '', r.volunteer), el('td', 'num', fmtCredit(r.confirmed_credit)), el('td', 'num', fmtInt(r.confirmed_samples)));
      return tr;
    }));
  }

  function drawVolunteers(status) {
    const body = byId('volunteers').tBodies[0];
    body.replaceChildren(...status.volunteers.map((v) => {
      const tr = el('tr');
      const device = el('td');
      if (v.device) device.append(el('span', `device ${v.device}`, v.device.toUpperCase()));
      else device.append(el('span', 'muted', '–'));
      const seated = v.pipeline >= 0;
      tr.append(el('td', '', v.volunteer),
        seated ? el('td', 'num', v.pipeline + 1) : el('td', 'muted', 'waiting'),
        el('td', 'num', seated ? v.stage + 1 : ''),
        el('td', '', seated ? fmtBlocks(v.first_block, v.last_block) : '–'), device,
        el('td', 'num', fmtRate(v.samples_per_s)), el('td', '', REACH_WORDS[v.reach] || v.reach));
      return tr;
    }));
    const t = status.totals;
    setText('volunteers-hint', t.listed < t.volunteers
      ? `The first ${fmtInt(t.listed)} of ${fmtInt(t.volunteers)} volunteers, under pseudonyms; their keys and addresses stay with the coordinator.`
      : 'Volunteers appear under pseudonyms; their keys and addresses stay with the coordinator.');
  }

  function drawBans(status) {
    const b = status.bans;
    const summary = byId('bans-summary');
    if (!b.count) {
      summary.textContent = 'No volunteer has been banned.';
      summary.className = 'empty';
    } else {
      const codes = Object.entries(b.by_code).map(([code, n]) => `${fmtInt(n)} ${code.toLowerCase().replaceAll('_', ' ')}`);
      summary.textContent = `${fmtInt(b.count)} banned on evidence its peers verified: ${codes.join(', ')}.`;
      summary.className = '';
    }
    byId('bans').replaceChildren(...b.volunteers.map((v) => {
      const li = el('li');
      li.dataset.code = v.code;
      li.append(el('strong', '', v.volunteer), `: ${banWords(v)} `, el('span', 'when', `(${fmtTime(v.unix_ms)})`));
      return li;
    }));
  }

  // ---- polling ---------------------------------------------------------------------------
  function connection(live, text) {
    byId('connection').className = `pill ${live ? 'live' : 'lost'}`;
    setText('connection-text', text);
  }

  function render(status) {
    drawTotals(status);
    drawLoss(status);
    drawThroughput(status);
    drawMeters(status);
    drawPipelines(status);
    drawEvaluation(status);
    drawArchive(status);
    drawLeaderboard(status);
    drawVolunteers(status);
    drawBans(status);
    document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
  }

  async function poll() {
    try {
      const res = await fetch('/api/status', { cache: 'no-store' });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      render(await res.json());
      connection(true, `Live · updated ${fmtTime(Date.now())}`);
    } catch (e) {
      connection(false, `Cannot reach the coordinator (${e.message}): retrying`);
    }
    setTimeout(poll, POLL_MS);
  }

  for (const n of document.querySelectorAll('.charts-unavailable')) n.hidden = chartsAvailable;
  if (!chartsAvailable) for (const c of document.querySelectorAll('.chart-box')) c.hidden = true;
  document.body.dataset.charts = chartsAvailable ? 'available' : 'unavailable';
  poll();
})();
