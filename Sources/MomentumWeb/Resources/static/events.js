// Writes that are safe to repeat: check-ins, purchases and logged entries, each sent with a
// client event id kept until the server has answered it.
import { api, APIError } from './api.js';
import { t } from './i18n.js';
import { setCounters } from './common.js';

// Each write of an event carries a client event id, kept until the server has answered
// it. When the connection drops after the server stored the event but before its answer
// arrived, pressing the button again sends the same id, and the server answers as it did
// the first time instead of storing a second check-in or purchase.
const unanswered = new Map();

function newEventID() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `e_web-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

// `name` names the write ("check-in <habit>"); a press on another day is another write,
// even on a page left open overnight after a failure.
export async function sendEvent(name, path, body) {
  const key = `${name} ${new Date().toDateString()}`;
  const eventId = unanswered.get(key) ?? newEventID();
  unanswered.set(key, eventId);
  try {
    const result = await api('POST', path, { ...body, eventId });
    unanswered.delete(key);
    return result;
  } catch (error) {
    // A refusal is an answer; only a lost connection or a server fault keeps the id.
    if (error instanceof APIError && error.status < 500) unanswered.delete(key);
    throw error;
  }
}

// Sends one event through the push route; a refusal comes back as the event's result.
export async function pushEvent(name, payload) {
  const key = `${name} ${JSON.stringify(payload)}`;
  const id = unanswered.get(key) ?? newEventID();
  unanswered.set(key, id);
  const tz = document.body.dataset.zone || Intl.DateTimeFormat().resolvedOptions().timeZone;
  let result;
  try {
    result = await api('POST', '/v1/events', { events: [{ id, at: new Date().toISOString(), tz, ...payload }] });
  } catch (error) {
    if (error instanceof APIError && error.status < 500) unanswered.delete(key);
    throw error;
  }
  unanswered.delete(key);
  const outcome = result.results?.[0];
  if (outcome && (outcome.status === 'rejected' || outcome.status === 'invalid')) {
    const problem = outcome.error ?? {};
    throw new APIError(problem.message ?? t('app.eventRefused'), 422, {
      error: { code: 'invalid_input', message: problem.message, details: [{ field: problem.field ?? '', issue: problem.message ?? '' }] },
    });
  }
  setCounters(result.wallet);
  return result;
}
