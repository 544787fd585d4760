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

  function section(title, items, render) {
    const box = el('section');
    box.append(el('h3', '', `${title} (${items.length})`));
    if (items.length === 0) {
      box.append(el('p', 'muted', 'None.'));
    } else {
      const list = el('ul');
      for (const item of items) list.append(render(item));
      box.append(list);
    }
    return box;
  }

  function renderControl(digest) {
    const box = el('section', 'control');
    const state = digest.control.state;
    box.append(el('h2', `state ${state === 'run' ? 'ok' : 'warning'}`, `Fleet ${WORDS[state]}`));
    box.append(el('p', 'muted', `Set by ${digest.control.setBy}${digest.control.reason ? ` — “${digest.control.reason}”` : ''}`));
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
    root.append(renderControl(digest));
    root.append(el('p', 'muted', `Since the last published digest: ${digest.eventCount} event(s), updated ${new Date(digest.generatedAt).toLocaleTimeString()}.`));
    const escalations = section('Escalations waiting for the operator', digest.escalations, (escalation) =>
      el('li', 'warning', `${escalation.title}: ${escalation.budget ? `${escalation.budget} budget spent, ${escalation.spent} of ${escalation.limit} rounds` : escalation.reason || 'escalated'} (by ${escalation.by})`),
    );
    if (digest.escalations.length > 0) escalations.classList.add('attention');
    root.append(escalations);
    const blockers = section('Blockers', digest.blockers, (blocker) => el('li', 'warning', blocker.text));
    if (digest.blockers.length > 0) blockers.classList.add('attention');
    root.append(blockers);
    root.append(section('Stale agents', digest.staleAgents, (callsign) => el('li', 'warning', `${callsign}: no heartbeat within the agent TTL`)));
    root.append(section('Agents', digest.agents, renderAgent));
    root.append(section('Builds', digest.builds, (build) => el('li', build.status === 'green' ? 'ok' : 'warning', `${build.status.toUpperCase()}${build.commit ? ` at ${build.commit.slice(0, 10)}` : ''}${build.finishedAt ? `, ${ago(build.finishedAt)}` : ''}`)));
    root.append(section('Claims acquired', digest.claims.acquired, (claim) => el('li', '', `${claim.holder}: ${claim.pattern}${claim.reason ? ` — ${claim.reason}` : ''}`)));
    root.append(section('Claims released', digest.claims.released, (claim) => el('li', '', `${claim.holder}: ${claim.pattern} (${claim.reason}${claim.note ? `: ${claim.note}` : ''})`)));
    root.append(section('Handoffs', digest.handoffs, (handoff) => el('li', '', `${handoff.from} → ${handoff.to}: ${handoff.status}`)));
    root.append(section('Budgets spent', digest.budgetsSpent, (budget) => el('li', '', `${budget.title}: rework ${budget.reworkRounds}/${budget.reworkLimit}, clarification ${budget.clarificationRounds}/${budget.clarificationLimit}`)));
    root.append(section('Work completed', digest.workCompleted, (work) => el('li', '', `${work.title} — ${work.by}`)));
    const counts = Object.entries(digest.workCounts).map(([status, count]) => `${status} ${count}`).join(' · ');
    root.append(el('p', 'muted', counts ? `Work queue: ${counts}` : 'Work queue: empty'));
  }

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (message && message.type === 'digest' && message.model) render(message.model);
  });
  vscode.postMessage({ type: 'ready' });
})();
