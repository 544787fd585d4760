// The Digest webview: renders the digest the extension posts, with DOM text nodes only (no
// innerHTML: agent notes are untrusted text), and sends back only messages the extension accepts.
// @ts-check
(function () {
  // eslint-disable-next-line no-undef
  const vscode = acquireVsCodeApi();
  const root = /** @type {HTMLElement} */ (document.getElementById('digest'));

  const WORDS = { run: 'running', drain: 'draining', pause: 'paused', stop: 'stopped' };
  const ACTIONS = [
    { command: 'fleet.pause', label: 'Pause', hide: 'pause' },
    { command: 'fleet.drain', label: 'Drain', hide: 'drain' },
    { command: 'fleet.resume', label: 'Resume', hide: 'run' },
    { command: 'fleet.stop', label: 'Stop', hide: 'stop' },
  ];

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = String(text);
    return node;
  }

  function ago(iso) {
    const seconds = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
    if (seconds < 60) return `${seconds} s ago`;
    const minutes = Math.round(seconds / 60);
    return minutes < 60 ? `${minutes} min ago` : `${Math.floor(minutes / 60)} h ${minutes % 60} min ago`;
  }

  /** A section only when it has something to say: an empty digest is not a column of "None.". */
  function section(title, items, render) {
    if (items.length === 0) return [];
    const box = el('section');
    box.append(el('h3', '', `${title} (${items.length})`));
    const list = el('ul');
    for (const item of items) list.append(render(item));
    box.append(list);
    return [box];
  }

  function quiet(digest) {
    return digest.eventCount === 0 && !trainText(digest) && digest.blockers.length === 0 && digest.awaitingDecision.length === 0 && digest.staleAgents.length === 0 && digest.unacknowledgedViolations === 0 && (digest.waitingForPerson || []).length === 0 && !digest.openForecastConflicts && !digest.notComparedCount;
  }

  function tab(label, active, message) {
    const button = el('button', active ? 'tab active' : 'tab', label);
    button.setAttribute('aria-pressed', String(active));
    button.addEventListener('click', () => vscode.postMessage(message));
    return button;
  }

  function renderTabs(model) {
    const tabs = el('div', 'tabs');
    tabs.append(tab('Now', model.shown.kind === 'live', { type: 'show', view: 'live' }));
    if (model.catchUpFrom !== null) tabs.append(tab('Since you were last here', model.shown.kind === 'catchUp', { type: 'show', view: 'catchUp' }));
    return tabs;
  }

  function renderHistory(model) {
    if (model.history.length === 0) return [];
    const box = el('section', 'history');
    box.append(el('h3', '', `Published digests (${model.history.length})`));
    const list = el('ul');
    for (const entry of model.history) {
      const item = el('li');
      const open = model.shown.kind === 'published' && model.shown.toSeq === entry.toSeq;
      const link = el('button', open ? 'link active' : 'link', `${new Date(entry.generatedAt).toLocaleString()} · ${entry.eventCount} event(s)${entry.blockers > 0 ? ` · ${entry.blockers} blocker(s)` : ''}`);
      link.addEventListener('click', () => vscode.postMessage({ type: 'open', toSeq: entry.toSeq }));
      item.append(link);
      list.append(item);
    }
    box.append(list);
    return [box];
  }

  function windowText(model, digest) {
    if (model.shown.kind === 'catchUp') return digest.eventCount === 0 ? 'Nothing happened since you were last here' : `Since you were last here (events ${digest.fromSeq}–${digest.toSeq})`;
    if (model.shown.kind === 'published') return `Published ${new Date(digest.generatedAt).toLocaleString()} (events ${digest.fromSeq}–${digest.toSeq})`;
    return `Since the last published digest: ${digest.eventCount} event(s), updated ${new Date(digest.generatedAt).toLocaleTimeString()}`;
  }

  /** A published digest is a record: the switch as it was then, and no buttons that would act as if it were now. */
  function renderControl(model, digest) {
    const box = el('section', 'control');
    const state = digest.control.state;
    const published = model.shown.kind === 'published';
    box.append(el('h2', `state ${state === 'run' ? 'ok' : 'warning'}`, published ? `Fleet was ${WORDS[state]} then` : `Fleet ${WORDS[state]}`));
    box.append(el('p', 'muted', `Set by ${digest.control.setBy}${digest.control.reason ? ` — “${digest.control.reason}”` : ''}`));
    if (published) return box;
    const buttons = el('div', 'actions');
    for (const action of ACTIONS) {
      if (action.hide === state) continue;
      const button = el('button', '', action.label);
      button.addEventListener('click', () => vscode.postMessage({ type: 'command', command: action.command }));
      buttons.append(button);
    }
    box.append(buttons);
    return box;
  }

  const WAITS = { permission: 'asks permission', input: 'waits for your input', question: 'asks you a question' };

  /**
   * What the window comes to, before any list: what needs the person (each with a count), then a
   * line of counts of what happened. A catch-up after a long absence reads in five seconds.
   */
  /** What the train did, graded by the plane's own builds (null when it did nothing): the first line of a morning report. */
  function trainText(digest) {
    const train = digest.integration || { landed: [], redBuilds: 0, conflicts: 0, failed: [] };
    if (train.landed.length + train.redBuilds + train.conflicts + train.failed.length === 0) return null;
    return `Train: ${train.landed.length} landed (each built GREEN by the plane) · ${train.redBuilds} RED build(s) · ${train.conflicts} conflict(s) sent back · ${train.failed.length} could not land`;
  }

  function renderSummary(model, digest) {
    const box = el('section', 'summary');
    const train = trainText(digest);
    if (train) box.append(el('p', digest.integration.failed.length + digest.integration.redBuilds > 0 ? 'train warning' : 'train ok', train));
    const verified = digest.awaitingDecision.filter((pending) => pending.status !== 'escalated').length;
    const red = digest.builds.filter((build) => build.status === 'red').length;
    const needs = [
      [digest.escalations.filter((e) => e.question).length, 'escalated question(s) to answer'],
      [digest.escalations.filter((e) => !e.question).length, 'escalation(s) to decide'],
      [verified, 'verified item(s) to accept or send back'],
      [(digest.waitingForPerson || []).length, 'agent(s) waiting for a person'],
      [red, 'red build(s)'],
      [(digest.integration || { failed: [] }).failed.length, 'item(s) the train could not land'],
      [digest.staleAgents.length, 'agent(s) gone silent'],
      [digest.unacknowledgedViolations, 'territory violation(s) not acknowledged'],
    ].filter(([count]) => count > 0);
    box.append(el('h2', needs.length > 0 ? 'state warning' : 'state ok', needs.length > 0 ? (model.shown.kind === 'published' ? 'What needed you then' : 'What needs you') : 'Nothing needs you'));
    if (needs.length > 0) {
      const list = el('ul', 'needs');
      for (const [count, what] of needs) list.append(el('li', 'warning', `${count} ${what}`));
      box.append(list);
    }
    const released = digest.claims.released.length;
    const counts = [
      `${digest.eventCount} event(s)`,
      `${digest.workCompleted.length} item(s) done`,
      `${digest.claims.acquired.length} claim(s) taken, ${released} released`,
      `${digest.handoffs.length} handoff(s)`,
      `${digest.agents.length} agent(s) on the roster`,
    ];
    box.append(el('p', 'muted counts', counts.join(' · ')));
    if (digest.openForecastConflicts > 0) box.append(el('p', 'warning', `${digest.openForecastConflicts} forecast merge conflict(s) open now between branches (\`fleet conflicts\` lists them)`));
    return box;
  }

  function renderAgent(agent) {
    const card = el('li', `agent status-${agent.status}`);
    const head = el('div', 'head');
    head.append(el('strong', '', agent.callsign), el('span', 'badge', agent.status));
    card.append(head);
    card.append(el('div', 'muted', `${agent.runtime} · ${agent.role} · heartbeat ${ago(agent.lastHeartbeatAt)} · ${agent.claims} claim(s) · ${agent.workCompleted} done`));
    if (agent.task) card.append(el('div', '', `Task: ${agent.task}`));
    if (agent.note) card.append(el('div', '', `Progress: ${agent.note}`));
    return card;
  }

  function render(model) {
    root.replaceChildren();
    if (model.connection.status !== 'connected' || !model.digest) {
      root.append(el('h2', 'state warning', 'No digest'));
      root.append(el('p', 'muted', model.error || model.connection.message || `Connecting to the plane of ${model.connection.home}…`));
      if (model.error) {
        const button = el('button', '', 'Show Log');
        button.addEventListener('click', () => vscode.postMessage({ type: 'command', command: 'fleet.showLog' }));
        root.append(button);
      }
      return;
    }
    const digest = model.digest;
    root.append(renderTabs(model));
    root.append(el('p', 'muted window', `${windowText(model, digest)}.`));
    root.append(renderSummary(model, digest));
    root.append(renderControl(model, digest));
    if (quiet(digest)) {
      root.append(el('p', 'quiet', `Nothing happened and nothing waits for you. ${digest.agents.length} agent(s) on the roster.`));
    } else {
      const escalations = section('Escalations waiting for the operator', digest.escalations, (escalation) =>
        el('li', 'warning', `${escalation.title}: ${escalation.question ? `${escalation.question.askedBy} asks: ${escalation.question.question} (${escalation.question.options.length} option(s); answer it in Needs You)` : escalation.budget ? `${escalation.budget} budget spent, ${escalation.spent} of ${escalation.limit} rounds` : escalation.reason || 'escalated'} (by ${escalation.by})`),
      );
      const waiting = section('Agents waiting for a person', digest.waitingForPerson || [], (wait) => el('li', 'warning', `${wait.callsign} (${wait.runtime}) ${WAITS[wait.reason]}, ${ago(wait.since)}: ${wait.message}`));
      const blockers = section('Blockers', digest.blockers, (blocker) => el('li', 'warning', blocker.text));
      for (const box of [...escalations, ...waiting, ...blockers]) box.classList.add('attention');
      if (digest.blockers.length === 0) root.append(el('p', 'ok', 'No blockers.'));
      root.append(
        ...escalations,
        ...waiting,
        ...blockers,
        ...section('Waiting for your decision', digest.awaitingDecision.filter((pending) => pending.status !== 'escalated'), (pending) => el('li', 'warning', `${pending.title}: verified, accept or send back`)),
        ...section('Builds', digest.builds, (build) => el('li', build.status === 'green' ? 'ok' : 'warning', `${build.scope}: ${build.status.toUpperCase()}${build.commit ? ` at ${build.commit.slice(0, 10)}` : ''}${build.finishedAt ? `, ${ago(build.finishedAt)}` : ''}`)),
        ...section('Territory violations', digest.violations, (violation) => el('li', 'warning', `${violation.path}: written by ${violation.writer} while ${violation.holder} held it`)),
        ...section('Stale agents', digest.staleAgents, (callsign) => el('li', 'warning', `${callsign}: no heartbeat within the agent TTL`)),
        ...section('Expired claims', digest.claims.released.filter((claim) => claim.reason === 'expired' || claim.reason === 'process_exited'), (claim) => el('li', '', `${claim.holder}: ${claim.pattern}`)),
        ...section('Work completed', digest.workCompleted, (work) => el('li', '', `${work.by}: ${work.title}`)),
        ...section('Landed by the train', digest.integration ? digest.integration.landed : [], (landed) => el('li', 'ok', `${landed.title} by ${landed.by} as ${landed.commit.slice(0, 10)}`)),
        ...section('Could not land', digest.integration ? digest.integration.failed : [], (failed) => el('li', 'warning', `${failed.id}: ${failed.reason}`)),
        ...section('Conflict forecast', digest.forecasts || [], (forecast) =>
          forecast.status === 'conflict'
            ? el('li', 'warning', `${forecast.agent} and ${forecast.other} would conflict in ${forecast.paths.join(', ')}, ${ago(forecast.at)}`)
            : el('li', 'ok', `${forecast.agent} and ${forecast.other} no longer conflict, ${ago(forecast.at)}`),
        ),
        ...section('Not compared with other branches (no conflict can be forecast for them)', digest.notCompared || [], (unreached) => el('li', 'warning', `${unreached.callsign}${unreached.branch ? ` (${unreached.branch})` : ''}: ${unreached.reason}`)),
        ...(digest.notComparedCount > (digest.notCompared || []).length ? [el('p', 'muted', `…and ${digest.notComparedCount - digest.notCompared.length} more not compared (\`fleet conflicts\` lists them)`)] : []),
        ...section('Budgets spent', digest.budgetsSpent, (budget) => el('li', '', `${budget.title}: rework ${budget.reworkRounds}/${budget.reworkLimit}, clarification ${budget.clarificationRounds}/${budget.clarificationLimit}`)),
        ...section('Agents', digest.agents, renderAgent),
        ...section('Fleet switch', digest.controlChanges, (change) => el('li', '', `${new Date(change.at).toLocaleTimeString()}: ${WORDS[change.state]} by ${change.by}${change.reason ? ` — “${change.reason}”` : ''}`)),
        ...section('Handoffs', digest.handoffs, (handoff) => el('li', '', `${handoff.from} → ${handoff.to}: ${handoff.status}`)),
        ...section('Claims acquired', digest.claims.acquired, (claim) => el('li', '', `${claim.holder}: ${claim.pattern}${claim.reason ? ` — ${claim.reason}` : ''}`)),
        ...section('Claims released', digest.claims.released, (claim) => el('li', '', `${claim.holder}: ${claim.pattern} (${claim.reason}${claim.note ? `: ${claim.note}` : ''})`)),
      );
      const counts = Object.entries(digest.workCounts).map(([status, count]) => `${status} ${count}`).join(' · ');
      root.append(el('p', 'muted', counts ? `Work queue: ${counts}` : 'Work queue: empty'));
    }
    root.append(...renderHistory(model));
  }

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (message && message.type === 'digest' && message.model) render(message.model);
  });
  vscode.postMessage({ type: 'ready' });
})();
