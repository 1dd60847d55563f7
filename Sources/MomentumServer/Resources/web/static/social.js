// Friends, invitations, the feed, reactions, nudges and families: the web app's social
// actions. Each calls the JSON API and re-renders the page from the server.
import { api, announce } from './api.js';

const path = encodeURIComponent;

// Shows a new invitation's code and link where the page keeps it, ready to copy.
function showInvitation(slot, invitation) {
  const link = new URL(invitation.link, location.origin).href;
  slot.hidden = false;
  slot.replaceChildren(
    Object.assign(document.createElement('span'), { textContent: 'Code ' }),
    Object.assign(document.createElement('code'), { textContent: invitation.code }),
    Object.assign(document.createElement('span'), { textContent: ' · link ' }),
    Object.assign(document.createElement('a'), { href: link, textContent: link }),
  );
  navigator.clipboard?.writeText(link).then(() => announce('Invitation link copied.'), () => {});
}

export function socialActions(refresh) {
  return {
    async invite(button) {
      const invitation = await api('POST', '/v1/invitations', {});
      await refresh();
      showInvitation(document.querySelector('[data-invitation]'), invitation);
      announce(`Invitation ${invitation.code} made.`);
    },
    async 'copy-invitation'(button) {
      const link = new URL(button.dataset.link, location.origin).href;
      await navigator.clipboard?.writeText(link);
      announce(`Link for ${button.dataset.code} copied.`);
    },
    async 'revoke-invitation'(button) {
      await api('DELETE', `/v1/invitations/${path(button.dataset.code)}`);
      announce('Invitation withdrawn.');
      await refresh();
    },
    async 'accept-invitation'(button) {
      button.disabled = true;
      const accepted = await api('POST', `/v1/invitations/${path(button.dataset.code)}/accept`);
      if (accepted.kind === 'family' && accepted.membership) {
        location.assign(`/families/${path(accepted.membership.owner)}/${path(accepted.membership.subject)}`);
      } else {
        location.assign(`/friends/${path(accepted.friend?.user ?? '')}`);
      }
    },
    async 'decline-invitation'(button) {
      button.disabled = true;
      await api('POST', `/v1/invitations/${path(button.dataset.code)}/decline`);
      location.assign('/friends');
    },
    async 'remove-friend'(button) {
      if (!confirm(`Remove ${button.dataset.name} from your friends? Your posts leave each other’s feeds.`)) return;
      await api('DELETE', `/v1/friends/${path(button.dataset.friend)}`);
      announce(`${button.dataset.name} removed.`);
      await refresh();
    },
    async block(button) {
      if (!confirm(`Block ${button.dataset.name}? They will not be told.`)) return;
      await api('PUT', `/v1/blocks/${path(button.dataset.user)}`);
      announce(`${button.dataset.name} blocked.`);
      await refresh();
    },
    async unblock(button) {
      await api('DELETE', `/v1/blocks/${path(button.dataset.user)}`);
      announce('Unblocked.');
      await refresh();
    },
    async nudge(button) {
      button.disabled = true;
      await api('POST', `/v1/friends/${path(button.dataset.friend)}/nudges`);
      button.textContent = `👋 ${button.dataset.name} was cheered on`;
      announce(`You cheered ${button.dataset.name} on.`);
    },
    async react(button) {
      const post = button.closest('[data-post]');
      const target = `/v1/posts/${path(post.dataset.owner)}/${path(post.dataset.post)}/reaction`;
      if (button.getAttribute('aria-pressed') === 'true') {
        await api('DELETE', target);
      } else {
        await api('PUT', target, { reaction: button.dataset.kind });
      }
      await refresh({ focus: { action: 'react' } });
    },
    async 'delete-post'(button) {
      const post = button.closest('[data-post]');
      if (!confirm('Delete this post from every feed?')) return;
      await api('DELETE', `/v1/posts/${path(post.dataset.owner)}/${path(post.dataset.post)}`);
      announce('Post deleted.');
      await refresh();
    },
    async 'share-unlock'(button) {
      button.disabled = true;
      await api('POST', '/v1/posts', { unlock: button.dataset.unlock });
      button.textContent = 'Posted ✓';
      announce('Posted to your friends’ feeds.');
    },
    async 'remove-member'(button) {
      const family = button.closest('[data-subject]');
      const leaving = button.dataset.leave === 'true';
      if (!confirm(leaving ? 'Leave this family? What you logged stays.' : 'Remove this member? What they logged stays.')) return;
      await api('DELETE',
        `/v1/families/${path(family.dataset.owner)}/${path(family.dataset.subject)}/members/${path(button.dataset.member)}`);
      if (leaving) location.assign('/friends');
      else await refresh();
    },
    async 'family-log'(button) {
      const family = document.querySelector('.family[data-subject]');
      const payload = { type: 'log', kind: button.dataset.kind, subject: family.dataset.subject };
      if (button.dataset.field) payload[button.dataset.field] = button.dataset.value;
      const tz = document.body.dataset.zone || Intl.DateTimeFormat().resolvedOptions().timeZone;
      const id = `w_${Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('')}`;
      button.disabled = true;
      try {
        const answer = await api('POST', `/v1/families/${path(family.dataset.owner)}/${path(family.dataset.subject)}/events`,
          { events: [{ id, at: new Date().toISOString(), tz, ...payload }] });
        const result = answer.results?.[0];
        if (result && result.status !== 'applied' && result.status !== 'duplicate') {
          throw new Error(result.error?.message ?? 'The entry was refused.');
        }
        announce(`Logged ${button.textContent.trim()}.`);
      } finally {
        button.disabled = false;
      }
      await refresh();
    },
  };
}

export function socialForms(refresh) {
  return {
    async 'open-invitation'(form) {
      const code = new FormData(form).get('code').trim();
      location.assign(`/invitations/${path(code)}`);
    },
    async sharing(form) {
      const data = new FormData(form);
      await api('PUT', '/v1/sharing', { habits: data.getAll('habit'), categories: data.getAll('category') });
      form.querySelector('[data-saved]').textContent = 'Saved.';
      announce('Sharing saved.');
    },
    async 'invite-member'(form) {
      const family = form.closest('[data-subject]');
      const invitation = await api('POST',
        `/v1/families/${path(family.dataset.owner)}/${path(family.dataset.subject)}/invitations`,
        { role: new FormData(form).get('role') });
      showInvitation(family.querySelector('[data-invitation]'), invitation);
      announce(`Invitation ${invitation.code} made.`);
    },
  };
}

// A member's role changes as soon as another is chosen.
export function watchRoles(refresh, showError) {
  document.addEventListener('change', async (event) => {
    const select = event.target.closest?.('select[data-action=change-role]');
    if (!select) return;
    const family = select.closest('[data-subject]');
    try {
      await api('PATCH',
        `/v1/families/${path(family.dataset.owner)}/${path(family.dataset.subject)}/members/${path(select.dataset.member)}`,
        { role: select.value });
      announce(`Role changed to ${select.value}.`);
      await refresh();
    } catch (error) {
      showError(family, error);
    }
  });
}
