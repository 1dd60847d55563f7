// Celebrations as seed 000 describes them, driven by the engine's CelebrationConfig:
// tier 1 an inline shimmer, tier 2 a card with confetti, photo, share and done, tier 3 a
// full-screen sequence (build-up, reveal, confetti, settle) ending with a photo prompt that
// adds the photo to the milestone's Memory. Particles are decorative (aria-hidden); the
// message is announced. Reduce Motion (the OS setting or the profile's) keeps only fades.
import { api, announce, reducedMotion } from './api.js';
import { t } from './i18n.js';

const SESSION_KEY = 'momentum-app-session';
let showing = false;

// The start of an app session (one per tab): paces the queue, then shows what is due.
export async function startSession() {
  let session = sessionStorage.getItem(SESSION_KEY);
  if (!session) {
    session = `web-${crypto.randomUUID()}`;
    sessionStorage.setItem(SESSION_KEY, session);
    const started = await api('POST', '/v1/celebrations/sessions', { session });
    if (started?.celebration) return present(started.celebration);
  }
  // Later page loads in the same session show nothing new on their own: celebrations
  // follow actions (a check-in, a purchase) and the planner's pacing, not navigation.
}

export async function presentNext() {
  if (showing) return;
  const next = await api('GET', '/v1/celebrations/next');
  if (next?.celebration) await present(next.celebration);
}

// A word of the page's language, safe to write into markup.
function html(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function seconds(value) {
  return Math.max(0, Number(value) || 0) * 1000;
}

function memoryID(celebration) {
  return `memory:${celebration.unlock.id}`;
}

// How many particles each intensity draws (seed 002: light for small milestones, medium
// for goal completions, epic for major achievements). The engine sends the intensity's
// name; an unknown one draws the medium count.
const PARTICLE_COUNTS = { light: 28, medium: 56, epic: 112 };

// Each particle type's shape: confetti are paper strips, coins discs, and sparkles,
// hearts and stars glyphs in the particle's colour.
const PARTICLE_GLYPHS = { sparkle: '✦', hearts: '♥', stars: '★' };

export function particleCount(config) {
  return PARTICLE_COUNTS[config.particles?.intensity] ?? PARTICLE_COUNTS.medium;
}

function particleLayer(config) {
  const layer = document.createElement('div');
  layer.className = 'particles';
  layer.setAttribute('aria-hidden', 'true');
  const type = config.particles?.type ?? 'confetti';
  layer.dataset.particles = type;
  const colors = config.particles?.colors?.length ? config.particles.colors : [config.accentColor];
  const glyph = PARTICLE_GLYPHS[type];
  const count = particleCount(config);
  for (let i = 0; i < count; i += 1) {
    const piece = document.createElement('span');
    piece.className = `particle ${type}`;
    piece.dataset.color = colors[i % colors.length];
    if (glyph) {
      piece.textContent = glyph;
      piece.style.color = colors[i % colors.length];
    } else {
      piece.style.background = colors[i % colors.length];
    }
    piece.style.left = `${Math.random() * 100}%`;
    piece.style.animationDelay = `${Math.random() * 0.6}s`;
    piece.style.setProperty('--drift', `${(Math.random() - 0.5) * 40}vw`);
    piece.style.setProperty('--spin', `${Math.random() * 720}deg`);
    layer.append(piece);
  }
  return layer;
}

// Particles follow the config: the theme's own (type, intensity, colours), or, where the
// theme has none (seed 002's refined fallback) but the tier's timeline has a confetti phase
// (seed 000's cards and full-screen sequences), plain confetti in the accent colour. Never
// with Reduce Motion (the engine then sends a fade-only timeline; the OS setting is
// checked here too), and never for the subtle and minimal styles.
function wantsParticles(config) {
  if (reducedMotion() || config.accessibility?.fadeOnly) return false;
  if (config.particles) return true;
  const confetti = (config.timeline?.phases ?? []).some((phase) => phase.kind === 'confetti');
  return confetti && (document.body.dataset.style || 'full') === 'full';
}

// Runs the timeline's phases: each phase sets a class on the element at its start time.
function runTimeline(element, config, onPhase) {
  const phases = config.timeline?.phases ?? [];
  const timers = [];
  for (const phase of phases) {
    timers.push(setTimeout(() => {
      element.dataset.phase = phase.kind;
      element.style.setProperty('--phase-duration', `${phase.duration}s`);
      onPhase?.(phase);
    }, seconds(phase.start)));
  }
  const end = phases.reduce((latest, p) => Math.max(latest, p.start + p.duration), config.duration ?? 2);
  return { end: seconds(end), cancel: () => timers.forEach(clearTimeout) };
}

async function markShown(celebration) {
  try {
    await api('POST', `/v1/celebrations/${encodeURIComponent(celebration.id)}/shown`);
  } catch {
    /* already shown elsewhere */
  }
}

async function dismiss(celebration) {
  try {
    await api('POST', `/v1/celebrations/${encodeURIComponent(celebration.id)}/dismissed`);
  } catch {
    /* already dismissed elsewhere */
  }
}

export async function present(celebration) {
  if (showing) return;
  showing = true;
  const config = celebration.config;
  announce(config.accessibility?.announcement ?? config.message);
  await markShown(celebration);
  const tier = Number(config.tier);
  try {
    if (tier <= 1) await inline(celebration);
    else if (tier === 2) await card(celebration);
    else await fullScreen(celebration);
  } finally {
    showing = false;
  }
}

// The element a celebration is drawn in: its tier, accent colour and reduced-motion
// state; a dialog is labelled by its title.
function surface(tag, kind, tier, config) {
  const element = document.createElement(tag);
  element.className = `celebration ${kind}${reducedMotion() ? ' reduced' : ''}`;
  element.dataset.tier = String(tier);
  element.style.setProperty('--accent', config.accentColor);
  if (tag === 'dialog') element.setAttribute('aria-labelledby', 'celebration-title');
  return element;
}

// The achievement's title under the message, unless it says the same thing.
function subtitle(element, title, message) {
  const same = (title ?? '').trim().toLowerCase() === (message ?? '').trim().toLowerCase();
  element.textContent = same ? '' : title;
  element.hidden = same;
}

// The lesser unlocks of the same moment (the goal's first contribution, a savings
// milestone the same contribution crossed), as lines under the message; none, no list.
function foldedLines(element, celebration) {
  const folded = celebration.folded ?? [];
  if (!folded.length) return;
  const list = document.createElement('ul');
  list.className = 'folded';
  for (const line of folded) {
    const item = document.createElement('li');
    item.dataset.unlock = line.id;
    const badge = document.createElement('span');
    badge.className = 'badge';
    badge.setAttribute('aria-hidden', 'true');
    badge.textContent = line.badge ?? '✨';
    item.append(badge, ` ${line.message}`);
    list.append(item);
  }
  element.after(list);
}

function inline(celebration) {
  const config = celebration.config;
  const root = document.getElementById('celebration-root');
  const banner = surface('div', 'inline', 1, config);
  banner.innerHTML = '<span class="icon" aria-hidden="true"></span><span class="message"></span>';
  banner.querySelector('.icon').textContent = config.icon?.emoji ?? '✨';
  banner.querySelector('.message').textContent = config.message;
  root.append(banner);
  const timeline = runTimeline(banner, config);
  return new Promise((resolve) => {
    setTimeout(async () => {
      banner.remove();
      await dismiss(celebration);
      resolve();
    }, Math.max(timeline.end, 1800));
  });
}

function card(celebration) {
  const config = celebration.config;
  const root = document.getElementById('celebration-root');
  const dialog = surface('dialog', 'card-tier', 2, config);
  dialog.innerHTML = `
    <div class="celebration-card">
      <div class="icon" aria-hidden="true"></div>
      <h2 id="celebration-title"></h2>
      <p class="muted when"></p>
      <figure class="photo-slot"></figure>
      <p class="error" role="alert"></p>
      <div class="actions">
        <label class="button upload">${html(t('celebrate.addPhoto'))} <input type="file" accept="image/jpeg,image/png"></label>
        <a class="button share" href="#">${html(t('celebrate.share'))}</a>
        <button type="button" class="button post">${html(t('celebrate.post'))}</button>
        <button type="button" class="primary done">${html(t('celebrate.done'))}</button>
      </div>
    </div>`;
  dialog.querySelector('.icon').textContent = config.icon?.emoji ?? celebration.unlock.badge ?? '🎉';
  dialog.querySelector('h2').textContent = config.message;
  subtitle(dialog.querySelector('.when'), celebration.unlock.title, config.message);
  foldedLines(dialog.querySelector('.when'), celebration);
  dialog.querySelector('.share').href = `/memories/${encodeURIComponent(memoryID(celebration))}/share`;
  offerPost(dialog.querySelector('.post'), celebration, dialog.querySelector('.error'));
  root.append(dialog);
  if (wantsParticles(config)) dialog.append(particleLayer(config));
  const slot = dialog.querySelector('.photo-slot');
  loadPhoto(celebration, slot);
  const upload = dialog.querySelector('.upload');
  offerPhoto(upload.querySelector('input'), celebration, dialog.querySelector('.error'), async () => {
    slot.replaceChildren();
    await loadPhoto(celebration, slot);
    upload.firstChild.textContent = `${t('celebrate.changePhoto')} `;
  });
  runTimeline(dialog, config);
  dialog.showModal();
  dialog.querySelector('.done').focus();
  return untilDone(dialog, celebration);
}

// Resolves when the dialog's Done button (or Escape) closes it, after dismissing the
// celebration on the server.
function untilDone(dialog, celebration, cleanup = () => {}) {
  return new Promise((resolve) => {
    const close = async () => {
      cleanup();
      dialog.close();
      dialog.remove();
      await dismiss(celebration);
      resolve();
    };
    dialog.querySelector('.done').addEventListener('click', close);
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      close();
    });
  });
}

// A photo chosen in `input` goes to the milestone's memory; `saved` then updates the
// celebration, and a refusal is shown in `error`.
function offerPhoto(input, celebration, error, saved) {
  input.addEventListener('change', async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    try {
      await api('PUT', `/v1/memories/${encodeURIComponent(memoryID(celebration))}/photo`, file);
      error.textContent = '';
      await saved();
      announce(t('celebrate.photoSaved'));
    } catch (failure) {
      error.textContent = failure.message;
    }
  });
}

// "Post to friends" shares the milestone (seed 004 R8.1): a post on every friend's feed.
function offerPost(button, celebration, error) {
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await api('POST', '/v1/posts', { unlock: celebration.unlock.id });
      button.textContent = t('posted');
      error.textContent = '';
      announce(t('celebrate.posted'));
    } catch (failure) {
      button.disabled = false;
      error.textContent = failure.detail ?? failure.message;
    }
  });
}

// The milestone's photo, or, while its memory has none, the memory's illustration.
async function loadPhoto(celebration, slot) {
  try {
    const { memories } = await api('GET', '/v1/memories');
    const memory = memories.find((m) => m.id === memoryID(celebration));
    if (memory?.photo) {
      const img = document.createElement('img');
      img.src = `/v1/photos/${memory.photo.original}`;
      img.alt = t('celebrate.photoFor', { title: memory.title });
      slot.append(img);
    } else if (memory) {
      slot.append(illustration(celebration));
    }
  } catch {
    /* the card works without its photo */
  }
}

// The memory's illustration (a picture of the achievement, light or dark as the page),
// decorative: the title says what it shows.
function illustration(celebration) {
  const img = document.createElement('img');
  img.className = 'illustration';
  img.alt = '';
  img.src = `/memories/${encodeURIComponent(memoryID(celebration))}/illustration.svg`;
  return img;
}

function fullScreen(celebration) {
  const config = celebration.config;
  const root = document.getElementById('celebration-root');
  const overlay = surface('dialog', 'fullscreen', 3, config);
  overlay.innerHTML = `
    <div class="stage">
      <div class="glow" aria-hidden="true"></div>
      <div class="icon" aria-hidden="true"></div>
      <h2 id="celebration-title"></h2>
      <p class="muted when"></p>
      <form class="photo-prompt" hidden>
        <p>${html(t('celebrate.makeMemory'))}</p>
        <label class="upload">${html(t('celebrate.choosePhoto'))} <input type="file" accept="image/jpeg,image/png"></label>
        <p class="error" role="alert"></p>
        <div class="actions">
          <a class="button share" href="#">${html(t('celebrate.share'))}</a>
          <button type="button" class="button post">${html(t('celebrate.post'))}</button>
          <button type="button" class="primary done">${html(t('celebrate.done'))}</button>
        </div>
      </form>
    </div>`;
  // The emoji until the milestone's illustration has loaded, then the illustration.
  const icon = overlay.querySelector('.icon');
  icon.textContent = config.icon?.emoji ?? '🏆';
  const picture = illustration(celebration);
  picture.addEventListener('load', () => icon.replaceChildren(picture));
  overlay.querySelector('h2').textContent = config.message;
  subtitle(overlay.querySelector('.when'), celebration.unlock.title, config.message);
  foldedLines(overlay.querySelector('.when'), celebration);
  overlay.querySelector('.share').href = `/memories/${encodeURIComponent(memoryID(celebration))}/share`;
  offerPost(overlay.querySelector('.post'), celebration, overlay.querySelector('.photo-prompt .error'));
  root.append(overlay);
  overlay.showModal();
  const particles = wantsParticles(config);
  const timeline = runTimeline(overlay, config, (phase) => {
    if (phase.kind === 'confetti' && particles && !overlay.querySelector('.particles')) overlay.append(particleLayer(config));
  });
  const prompt = overlay.querySelector('.photo-prompt');
  setTimeout(() => {
    overlay.dataset.phase = 'settle';
    prompt.hidden = false;
    overlay.querySelector('.done').focus();
  }, reducedMotion() ? 300 : timeline.end);
  offerPhoto(prompt.querySelector('input[type=file]'), celebration, prompt.querySelector('.error'), () => {
    prompt.querySelector('p').textContent = t('celebrate.savedToMemories');
  });
  return untilDone(overlay, celebration, () => timeline.cancel());
}
