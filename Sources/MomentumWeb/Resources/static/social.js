// Friends, invitations, the feed, reactions, nudges and families: the web app's social
// actions. Each calls the JSON API and re-renders the page from the server.
import { api, announce } from './api.js';
import { t } from './i18n.js';

const path = encodeURIComponent;

// Shows a new invitation's code and link where the page keeps it, ready to copy.
function showInvitation(slot, invitation) {
  const link = new URL(invitation.link, location.origin).href;
  slot.hidden = false;
  slot.replaceChildren(
    Object.assign(document.createElement('span'), { textContent: `${t('social.code')} ` }),
    Object.assign(document.createElement('code'), { textContent: invitation.code }),
    Object.assign(document.createElement('span'), { textContent: ` · ${t('social.link')} ` }),
    Object.assign(document.createElement('a'), { href: link, textContent: link }),
  );
  navigator.clipboard?.writeText(link).then(() => announce(t('social.linkCopied')), () => {});
}

export function socialActions(refresh) {
  return {
    async invite(button) {
      const invitation = await api('POST', '/v1/invitations', {});
      await refresh();
      showInvitation(document.querySelector('[data-invitation]'), invitation);
      announce(t('social.invitationMade', { code: invitation.code }));
    },
    async 'copy-invitation'(button) {
      const link = new URL(button.dataset.link, location.origin).href;
      await navigator.clipboard?.writeText(link);
      announce(t('social.codeCopied', { code: button.dataset.code }));
    },
    async 'revoke-invitation'(button) {
      await api('DELETE', `/v1/invitations/${path(button.dataset.code)}`);
      announce(t('social.invitationWithdrawn'));
      await refresh();
    },
    async 'revoke-family-invitation'(button) {
      const family = button.closest('[data-subject]');
      await api('DELETE',
        `/v1/families/${path(family.dataset.owner)}/${path(family.dataset.subject)}/invitations/${path(button.dataset.code)}`);
      announce(t('social.invitationWithdrawn'));
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
      if (!confirm(t('social.confirmRemoveFriend', { name: button.dataset.name }))) return;
      await api('DELETE', `/v1/friends/${path(button.dataset.friend)}`);
      announce(t('social.friendRemoved', { name: button.dataset.name }));
      await refresh();
    },
    async block(button) {
      if (!confirm(t('social.confirmBlock', { name: button.dataset.name }))) return;
      await api('PUT', `/v1/blocks/${path(button.dataset.user)}`);
      announce(t('social.blocked', { name: button.dataset.name }));
      await refresh();
    },
    async unblock(button) {
      await api('DELETE', `/v1/blocks/${path(button.dataset.user)}`);
      announce(t('social.unblocked'));
      await refresh();
    },
    async nudge(button) {
      button.disabled = true;
      await api('POST', `/v1/friends/${path(button.dataset.friend)}/nudges`);
      button.textContent = t('social.cheeredButton', { name: button.dataset.name });
      announce(t('social.cheered', { name: button.dataset.name }));
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
      if (!confirm(t('social.confirmDeletePost'))) return;
      await api('DELETE', `/v1/posts/${path(post.dataset.owner)}/${path(post.dataset.post)}`);
      announce(t('social.postDeleted'));
      await refresh();
    },
    async 'share-unlock'(button) {
      button.disabled = true;
      await api('POST', '/v1/posts', { unlock: button.dataset.unlock });
      button.textContent = t('posted');
      announce(t('social.posted'));
    },
    async 'remove-member'(button) {
      const family = button.closest('[data-subject]');
      const leaving = button.dataset.leave === 'true';
      if (!confirm(leaving ? t('social.confirmLeave') : t('social.confirmRemoveMember'))) return;
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
          throw new Error(result.error?.message ?? t('social.entryRefused'));
        }
        announce(t('social.familyLogged', { label: button.textContent.trim() }));
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
      form.querySelector('[data-saved]').textContent = t('saved');
      announce(t('social.sharingSaved'));
    },
    async 'invite-member'(form) {
      const family = form.closest('[data-subject]');
      const invitation = await api('POST',
        `/v1/families/${path(family.dataset.owner)}/${path(family.dataset.subject)}/invitations`,
        { role: new FormData(form).get('role') });
      await refresh();
      // The page was drawn again: the card to show the new code in is the new one.
      const card = document.querySelector(
        `.family[data-owner="${CSS.escape(family.dataset.owner)}"][data-subject="${CSS.escape(family.dataset.subject)}"]`);
      showInvitation((card ?? family).querySelector('[data-invitation]'), invitation);
      announce(t('social.invitationMade', { code: invitation.code }));
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
      // The role as the list shows it, in the page's language.
      announce(t('social.roleChanged', { role: select.selectedOptions[0]?.textContent.trim() || select.value }));
      await refresh();
    } catch (error) {
      showError(family, error);
    }
  });
}
