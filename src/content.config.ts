import { resolve } from 'node:path';
import { notesCollection, sessionsCollection } from 'sessionpress/content';
import config from 'virtual:sessionpress/config';

export const collections = {
  sessions: sessionsCollection(),
  // Notes under samples/ quote the bundled sample sessions: built from any other source, their
  // embeds could not resolve and would fail the build, so they are left out.
  notes: notesCollection({ exclude: config.sourceDir === resolve('content/sessions') ? [] : ['samples/**'] }),
};
