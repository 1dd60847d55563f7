// Importing another app's export (Loop's CSV files or zip, Beaver's JSON): checked first,
// then imported with a second press.
import { api, announce, APIError } from './api.js';
import { t, tn } from './i18n.js';

// The files of a zip archive, by their path in it, as text: entries stored or deflated
// (what Loop and every zip tool write), inflated by the browser itself.
async function unzip(blob) {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const damaged = () => new Error(t('app.import.notZip', { name: blob.name ?? t('app.import.theZipFile') }));
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 65_557); at -= 1) {
    if (view.getUint32(at, true) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw damaged();
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const files = {};
  const text = new TextDecoder();
  for (let n = 0; n < count; n += 1) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) throw damaged();
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    const name = text.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (name.endsWith('/') || !/\.(csv|json)$/i.test(name)) continue;
    if (local + 30 > bytes.length) throw damaged();
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + size > bytes.length) throw damaged();
    const data = bytes.subarray(start, start + size);
    if (method === 0) {
      files[name] = text.decode(data);
    } else if (method === 8) {
      if (typeof DecompressionStream === 'undefined') {
        throw new Error(t('app.import.noUnzip'));
      }
      const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
      files[name] = text.decode(await new Response(stream).arrayBuffer());
    } else {
      throw new Error(t('app.import.unreadable', { name }));
    }
  }
  return files;
}

// Choosing another export file starts over with a check.
document.addEventListener('change', (event) => {
  if (!event.target.matches?.('[data-import-files]')) return;
  const form = event.target.form;
  delete form.dataset.checked;
  form.querySelector('[data-import-submit]').textContent = t('app.import.check');
  form.querySelector('[data-import-report]').replaceChildren();
  form.querySelector('[data-error]').textContent = '';
});

export const forms = {
  // Another app's export: checked first (a dry run that lists what would come in), then
  // imported with a second press.
  async 'import-habits'(form) {
    const chosen = [...form.querySelector('[data-import-files]').files];
    if (!chosen.length) throw new Error(t('app.import.chooseFile'));
    const files = {};
    for (const file of chosen) {
      if (/\.zip$/i.test(file.name)) {
        Object.assign(files, await unzip(file));
      } else {
        // Files chosen one by one lose their folders: each habit's Checkmarks.csv would
        // take the place of the others.
        if (files[file.name] !== undefined) {
          throw new Error(t('app.import.sameName', { name: file.name }));
        }
        files[file.name] = await file.text();
      }
    }
    // Loop's scores are its own arithmetic; the server has no use for them.
    for (const name of Object.keys(files)) if (/(^|\/)scores\.csv$/i.test(name)) delete files[name];
    const source = Object.keys(files).some((name) => /\.json$/i.test(name)) ? 'beaver' : 'loop';
    const key = chosen.map((file) => `${file.name}:${file.size}:${file.lastModified}`).join('|');
    const dryRun = form.dataset.checked !== key;
    const slot = form.querySelector('[data-import-report]');
    let report;
    try {
      report = await api('POST', '/v1/imports', { source, files, dryRun });
    } catch (error) {
      delete form.dataset.checked;
      form.querySelector('[data-import-submit]').textContent = t('app.import.check');
      const details = error instanceof APIError && error.body?.error?.code === 'invalid_import'
        ? error.body.error.details ?? [] : [];
      if (!details.length) throw error;
      const list = document.createElement('ul');
      list.className = 'problems';
      for (const detail of details) {
        const item = document.createElement('li');
        const where = document.createElement('code');
        where.textContent = detail.field;
        item.append(where, ` ${detail.issue}`);
        list.append(item);
      }
      slot.replaceChildren(list);
      throw new Error(tn('app.import.nothingImported', details.length));
    }
    const heading = document.createElement('p');
    const newHabits = report.habits.filter((habit) => habit.new).length;
    const counts = { habits: tn('app.import.newHabits', newHabits), entries: tn('app.import.entries', report.stored) };
    heading.textContent = dryRun ? t('app.import.ready', counts) : t('app.import.imported', counts);
    if (report.alreadyImported) heading.textContent += ` ${tn('app.import.importedBefore', report.alreadyImported)}`;
    const habits = document.createElement('ul');
    for (const habit of report.habits) {
      const item = document.createElement('li');
      const name = document.createElement('strong');
      name.textContent = habit.name;
      const parts = [tn('app.import.checkIns', habit.checkIns)];
      if (habit.skips) parts.push(tn('app.import.skips', habit.skips));
      if (habit.archived) parts.push(t('app.import.archived'));
      if (!habit.new) parts.push(t('app.import.alreadyHere'));
      item.append(name, ` — ${parts.join(', ')}`);
      habits.append(item);
    }
    const notes = document.createElement('ul');
    notes.className = 'muted';
    for (const note of report.notes) {
      const item = document.createElement('li');
      item.textContent = note;
      notes.append(item);
    }
    if (report.future) {
      const item = document.createElement('li');
      item.textContent = tn('app.import.future', report.future);
      notes.append(item);
    }
    slot.replaceChildren(heading, habits, notes);
    const submit = form.querySelector('[data-import-submit]');
    if (dryRun) {
      form.dataset.checked = key;
      submit.textContent = newHabits || report.stored ? t('app.import.import') : t('app.import.check');
      if (!report.stored) delete form.dataset.checked;
      announce(heading.textContent);
    } else {
      delete form.dataset.checked;
      submit.textContent = t('app.import.check');
      const link = document.createElement('a');
      link.href = '/today';
      link.textContent = t('app.import.seeThem');
      heading.append(' ', link);
      announce(heading.textContent);
    }
  },
};
