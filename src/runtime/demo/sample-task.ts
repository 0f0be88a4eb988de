/** The task `npm start` gives its sample run (prefixed with the demo label when the demo model answers). */
export const SAMPLE_TASK =
  'Look around the workspace, keep a short task list with update_tasks, and write demo-notes.md with a few notes on what you find. ' +
  'Then call complete_task.';
