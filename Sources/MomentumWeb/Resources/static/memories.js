// Memories and share cards: a memory's note and photo, a subject's photo, and a share
// card downloaded as a PNG.
import { api, announce, APIError } from './api.js';
import { t } from './i18n.js';
import { refresh } from './refresh.js';
import { describeError, showError } from './common.js';

document.addEventListener('change', async (event) => {
  const input = event.target;
  const action = input.dataset?.action;
  if ((action !== 'upload-photo' && action !== 'upload-subject-photo') || !input.files?.length) return;
  const path = action === 'upload-photo'
    ? `/v1/memories/${encodeURIComponent(input.dataset.memory)}/photo`
    : `/v1/subjects/${encodeURIComponent(input.dataset.subject)}/photo`;
  const label = input.closest('label');
  label?.classList.add('busy');
  try {
    await api('PUT', path, input.files[0]);
    announce(t('app.photoAdded'));
    await refresh();
  } catch (error) {
    showError(input.closest('article, .subject-card'), error);
  } finally {
    label?.classList.remove('busy');
    input.value = '';
  }
});

export const actions = {
  async 'remove-subject-photo'(button) {
    await api('DELETE', `/v1/subjects/${encodeURIComponent(button.dataset.subject)}/photo`);
    announce(t('app.photoRemoved'));
    await refresh();
  },
  async 'remove-photo'(button) {
    await api('DELETE', `/v1/memories/${encodeURIComponent(button.dataset.memory)}/photo`);
    announce(t('app.photoRemoved'));
    await refresh();
  },
};

export const forms = {
  async 'save-note'(form) {
    const memory = form.dataset.memory;
    await api('PATCH', `/v1/memories/${encodeURIComponent(memory)}`, { note: new FormData(form).get('note') });
    form.querySelector('[data-saved]').textContent = t('saved');
    announce(t('app.noteSaved'));
  },
};

// MARK: share cards

// "Download PNG" takes the server's PNG when it can make one; a server without its
// rasterizer (rsvg-convert) answers that it cannot, and the browser then draws the SVG card
// on a canvas of the card's size and saves that: a PNG on any machine.
async function rasterize(svgURL, width, height) {
  const response = await fetch(svgURL, { credentials: 'same-origin' });
  if (!response.ok) throw new APIError(t('app.card.notLoaded', { status: response.status }), response.status, null);
  const url = URL.createObjectURL(await response.blob());
  try {
    const image = new Image();
    await new Promise((resolve, reject) => {
      image.onload = resolve;
      image.onerror = () => reject(new Error(t('app.card.notDrawn')));
      image.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    canvas.getContext('2d').drawImage(image, 0, 0, width, height);
    return await new Promise((resolve, reject) => {
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error(t('app.card.noPNG')))), 'image/png');
    });
  } finally {
    URL.revokeObjectURL(url);
  }
}

function save(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

document.addEventListener('click', async (event) => {
  const link = event.target.closest?.('a[data-download=png]');
  if (!link) return;
  event.preventDefault();
  const slot = link.parentElement.querySelector('[data-error]');
  if (slot) slot.textContent = '';
  try {
    let blob = null;
    try {
      const response = await fetch(link.href, { credentials: 'same-origin' });
      if (response.ok && response.headers.get('Content-Type')?.startsWith('image/png')) blob = await response.blob();
    } catch {
      blob = null; // No answer: the browser can still draw it if the SVG loads.
    }
    blob ??= await rasterize(link.dataset.svg, Number(link.dataset.width), Number(link.dataset.height));
    save(blob, link.getAttribute('download'));
    announce(t('app.card.downloaded'));
  } catch (error) {
    if (slot) slot.textContent = describeError(error);
    else announce(describeError(error));
  }
});
