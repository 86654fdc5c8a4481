import { join, resolve } from 'node:path';
import { isWithin } from './confined-file.js';
import { FileSessionGrants, storeSeal } from './file-session-grants.js';
import { FileSessionHistory } from './file-session-history.js';
import { FileSessionSummaries } from './file-session-summaries.js';
import { FileSessionTasks } from './file-session-tasks.js';
import { HistorySeal } from './history-seal.js';
import { LineAppender } from './line-appender.js';
import { SessionFolder } from './session-folder.js';
import { sessionFolderPaths, type SessionFolderPaths } from './session-folder-paths.js';
import { SessionQueues } from './session-queues.js';
import { TaskSeal } from './task-seal.js';

/** The options of `FileSessionStore` (documented on its constructor). */
export interface FileSessionStoreOptions {
  readonly dir?: string;
  readonly grantKey?: Uint8Array | string;
  readonly home?: string;
  readonly trustUnsealed?: readonly string[];
}

/** What a `FileSessionStore` is made of: each concern's part, sharing one folder, one key and one set of write queues. */
export interface FileSessionParts {
  /** The folder holding the files. */
  readonly dir: string;
  /** The folder resolved: the key of its sessions' claims in this process. */
  readonly folderKey: string;
  /** Where the files lie, read confined. */
  readonly folder: SessionFolder;
  /** The folder's real and named paths, found anew each time: what its seals bind and what keys its lifetimes, for reads and deletes alike. */
  readonly paths: () => Promise<SessionFolderPaths>;
  /** Each session's writes, one after another: shared with every store of the folder in this process, however its path was given. */
  readonly queues: SessionQueues;
  /** The sessions' messages and archives, sealed. */
  readonly history: FileSessionHistory;
  /** The sessions' summary files, which `list` reads. */
  readonly summaries: FileSessionSummaries;
  /** The stored "always" approvals, signed. */
  readonly grants: FileSessionGrants;
  /** Appends grant lines. */
  readonly lines: LineAppender;
  /** The task files, sealed. */
  readonly tasks: FileSessionTasks;
}

/**
 * Builds the parts of a store under `<workspace>/.rxharness/sessions/` (or `options.dir`):
 * files confined to the workspace, or to `options.dir` when that lies outside it; one key
 * (`options.grantKey`, else the home folder's) signs grants and seals history and task files.
 * Apart from the store so that its class reads as what it does, not how it is wired.
 */
export function fileSessionParts(workspace: string, options: FileSessionStoreOptions): FileSessionParts {
  const dir = options.dir ?? join(workspace, '.rxharness', 'sessions');
  const base = resolve(workspace);
  const folderKey = resolve(dir);
  const root = isWithin(base, folderKey) ? { path: base, label: 'the workspace' } : { path: folderKey, label: 'the session folder' };
  const folder = new SessionFolder(root, dir);
  const queues = new SessionQueues(folderKey);
  const seal = storeSeal({ workspace: base, grantKey: options.grantKey, home: options.home });
  const paths = sessionFolderPaths(root.path, dir);
  const lines = new LineAppender(root);
  const grantsFile = (sessionId: string): string => folder.file(sessionId, 'grants');
  const grantFiles = { mkdir: () => folder.mkdir(), read: (id: string) => folder.read(grantsFile(id)), append: (id: string, text: string) => lines.append(grantsFile(id), text) };
  const grants = new FileSessionGrants(paths, grantFiles, seal);
  const taskSeal = new TaskSeal(seal, paths);
  // History and summaries name each other: each is reached once both are made.
  const history: FileSessionHistory = new FileSessionHistory(folder, queues, {
    seal: new HistorySeal(seal, paths),
    trustUnsealed: options.trustUnsealed,
    keepSummary: (sessionId, messages) => summaries.keep(sessionId, messages),
    readTask: (text, name) => taskSeal.read(text, name),
  });
  const summaries: FileSessionSummaries = new FileSessionSummaries(root, dir, {
    earlierTitle: (sessionId) => history.earlierTitle(sessionId),
    enqueue: (sessionId, task) => queues.enqueue(sessionId, task),
  });
  const tasks = new FileSessionTasks(folder, queues, taskSeal);
  return { dir, folderKey, folder, paths, queues, history, summaries, grants, lines, tasks };
}
