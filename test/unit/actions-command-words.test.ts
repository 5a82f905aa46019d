// --exec word splitting (as a shell would, expanding nothing) and placeholder filling.
import { describe, expect, it } from 'vitest';
import { fillWords, splitWords } from '../../src/actions/command-words.js';

describe('splitWords', () => {
  it.each([
    ['notify-send "New recall" {alert_title}', ['notify-send', 'New recall', '{alert_title}']],
    ["echo 'a  b' c\\ d", ['echo', 'a  b', 'c d']],
    ['say "a \\"quoted\\" \\$HOME" $HOME ~ *.txt', ['say', 'a "quoted" $HOME', '$HOME', '~', '*.txt']],
    ['a;b && c | d > e', ['a;b', '&&', 'c', '|', 'd', '>', 'e']],
    ['x\'\'y ""', ['xy', '']],
    ['  spaced\tout\n ', ['spaced', 'out']],
  ])('%j', (command, words) => {
    expect(splitWords(command)).toEqual(words);
  });

  it.each([
    ["echo 'open", /unterminated single quote/],
    ['echo "open', /unterminated double quote/],
    ['echo \\', /trailing backslash/],
    ['   ', /needs a command/],
  ])('refuses %j', (command, message) => {
    expect(() => splitWords(command)).toThrow(message);
  });
});

describe('fillWords', () => {
  const record = {
    id: 5,
    alert_title: 'Kettle $(touch x); `rm -rf /` && echo',
    risk_types: ['fire', 'burn'],
    involved_parties: [{ name: 'A' }],
    counterfeit: null,
    weird: 'a\0b',
  };

  it('puts each value inside its own argument, untouched', () => {
    const words = splitWords(
      'notify --title {alert_title} id={id} {risk_types} {counterfeit} {missing} {weird} {{id}}',
    );
    expect(fillWords(words, record)).toEqual([
      'notify',
      '--title',
      'Kettle $(touch x); `rm -rf /` && echo',
      'id=5',
      'fire, burn',
      '',
      '',
      'ab',
      '{5}',
    ]);
  });

  it('objects become JSON; arrays of them are joined like any array', () => {
    expect(fillWords(['{involved_parties}', '{x}'], { ...record, x: { a: [1] } })).toEqual([
      '{"name":"A"}',
      '{"a":[1]}',
    ]);
  });
});
