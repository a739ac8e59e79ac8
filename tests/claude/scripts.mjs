// The scripted conversations the tests play, as functions of the world (tool inputs name the
// project's absolute paths, as a real model's would).
import path from 'node:path';

const text = (t) => ({ type: 'text', text: t });
const tool = (name, input) => ({ type: 'tool_use', name, input });

export const LESSON = 'Lesson: ./check.sh fails with "widget.conf has no port" until widget.conf sets port = 8080.';

// Session 1: a failing check, the file read and fixed, the check passing, a lesson stated.
export function fixSession(w) {
  const conf = path.join(w.project, 'widget.conf');
  return [
    { content: [text('I will run the widget check first.'), tool('Bash', { command: './check.sh', description: 'Run the widget check' })] },
    { content: [text('The check wants a port; reading the configuration.'), tool('Read', { file_path: conf })] },
    { content: [tool('Edit', { file_path: conf, old_string: 'name = widget\n', new_string: 'name = widget\nport = 8080\n' })] },
    { content: [text('Running the check again.'), tool('Bash', { command: './check.sh', description: 'Run the widget check again' })] },
    { content: [text(`The check passes now. ${LESSON}`)] },
  ];
}

// Session 2: the model looks the lesson up in lore's memory, queues it as a proposal through
// the shell (which lore's PreToolUse hook audits), and answers.
export function recallSession(w) {
  return [
    { content: [text('Let me check what lore remembers about the widget check.'),
      tool('mcp__lore__search', { query: 'check.sh widget.conf port', scope: 'all' })] },
    { content: [tool('Bash', { command: `lore propose ${w.project} --type convention --subject "widget port" --insight "widget.conf needs a port" --evidence "check.sh failed without it" --confidence 0.9 --wave claude-test`, description: 'Propose the learning' })] },
    { content: [text('lore remembers it: widget.conf needs port = 8080 for ./check.sh to pass.')] },
  ];
}

// A session that meets faults before its one good answer.
export const faultSession = (faults) => [...faults, { content: [text('recovered after the faults')] }];
