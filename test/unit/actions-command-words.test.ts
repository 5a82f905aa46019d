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

describe('a {field} in the code an interpreter runs', () => {
  // `sh -c '… {alert_title}'` would hand a recall's text to a shell: "Kettle $(touch pwned)" runs touch.
  it.each([
    ["sh -c 'echo new recall: {alert_title}'", 'sh'],
    ["/bin/bash -ec 'notify {alert_title}'", 'bash'],
    ["sh -c -- 'x {id}'", 'sh'],
    ["fish --command 'echo {id}'", 'fish'],
    ['python3.12 -c \'print("{alert_title}")\'', 'python'],
    ['perl -ne \'print "{id}"\'', 'perl'],
    ['node --eval=\'console.log("{id}")\'', 'node'],
    ['node -p \'"{id}"\'', 'node'],
    ['awk \'BEGIN { print "{id}" }\'', 'awk'],
    ["sed -e 's/x/{alert_title}/e' file", 'sed'],
    ["sed 's/x/{alert_title}/' file", 'sed'],
    // A review's ways past the first guard: an option with a value of its own before the code flag, `--` before
    // awk's or sed's program, a second -e, and an awk or sed whose options GNU getopt takes from any word.
    ['python3 -W ignore -c {alert_title}', 'python'],
    ['python3 -X utf8 -c {alert_title}', 'python'],
    ['node -r fs -e {product_description}', 'node'],
    ['perl -I /tmp -e {packaging_description}', 'perl'],
    ["perl -e 'print 1' -e {id}", 'perl'],
    ['bash --rcfile /dev/null -c {id}', 'bash'],
    ['awk -- {product_name} /dev/null', 'awk'],
    ['sed -n -- {product_brand} FILE', 'sed'],
    ['awk -f notify.awk {id}', 'awk'],
    ['sed -e s/x/y/ {id}', 'sed'],
  ])('refuses %j', (command, program) => {
    expect(() => splitWords(command)).toThrow(`a {field} cannot be in the code ${program} runs`);
  });

  it.each([
    // A record's text choosing the module, the library path or the script an interpreter loads.
    ['node -r {id} app.js', 'node'],
    ['python3 -m {id}', 'python'],
    ['perl -M{id} -e 1', 'perl'],
    ['python3 {id}', 'python'],
    ['ruby -I {id} notify.rb', 'ruby'],
    // A second review's: words after the code that perl and node still read as options (a title "-e…" or
    // "--eval=…"), an option's value taken for the script, perl -n opening a name ending in |, a renamed shell.
    ['perl -e \'print "@ARGV"\' {alert_title}', 'perl'],
    ["node -e 'console.log(process.argv[1])' {alert_title}", 'node'],
    ['python3 -W ignore {alert_title}', 'python'],
    ['perl -ne print {alert_title}', 'perl'],
    ['perl -ne print -- {alert_title}', 'perl'],
    ['rbash -c {alert_title}', 'rbash'],
    ['perl5.36-x86_64-linux-gnu -e {alert_title}', 'perl'],
    ['/usr/bin/bash.exe -c {alert_title}', 'bash'],
    // A second read's: builds whose file names go on past a version (free-threaded, debug, a distribution's).
    ['python3.13t -c {alert_title}', 'python'],
    ['python3.12d -c {alert_title}', 'python'],
    ['python3.7m -c {alert_title}', 'python'],
    ['sh.distrib -c {alert_title}', 'sh'],
  ])('refuses %j: a {field} among the options or as the script', (command, program) => {
    expect(() => splitWords(command)).toThrow(
      new RegExp(`a \\{field\\} cannot (be in the code ${program} runs|stand where ${program} may read it)`),
    );
  });

  it.each([
    // Programs that run another program, a shell command or code their words name: no placeholder anywhere.
    ['env {hazard_description}', 'env'],
    ['timeout 5 {product_category}', 'timeout'],
    ['flock /tmp/lk -c {measure_details}', 'flock'],
    ["env LANG=C nice -n 5 dash -o errexit -c 'x {id}'", 'env'],
    ['/usr/bin/nice -n 5 notify.sh {id}', 'nice'],
    ['ssh host notify {alert_title}', 'ssh'],
    ['xargs -0 {id}', 'xargs'],
    ['sudo -u bob notify.sh {id}', 'sudo'],
    ['watch -n 5 echo {id}', 'watch'],
    ['sqlite3 x.db {alert_title}', 'sqlite'],
    ['git -c {id} status', 'git'],
    ['tar -cf x.tar --to-command={id} .', 'tar'],
    ['scp -S {id} a b', 'scp'],
    ['sort --compress-program={id} f', 'sort'],
    ['vim.basic -Nes -u NONE +{alert_title} +qa!', 'vim'],
    ['nvim.appimage --headless +{alert_title}', 'nvim'],
    ['psql.bin -c {alert_title}', 'psql'],
    ['sudo.ws notify.sh {id}', 'sudo'],
  ])('refuses %j: a {field} in a command that %s runs', (command, program) => {
    expect(() => splitWords(command)).toThrow(`a {field} cannot be in a command ${program} runs`);
  });

  it.each([
    // The safe forms: the field is an argument of the script, never its text.
    ['sh -c \'notify-send -- "$1"\' sh {alert_title}'],
    ['bash notify.sh {alert_title}'],
    ['python3 notify.py --title {alert_title}'],
    ["perl -e 'print $ARGV[0]' -- {id}"],
    ['notify-send -- sh {alert_title}'],
    ['python3 -X utf8 notify.py {alert_title}'],
    ["python3 -c 'import sys; print(sys.argv[1])' {alert_title}"],
    ["node -e 'console.log(process.argv[1])' -- {id}"],
    ['node ./notify.mjs {id}'],
    ['python3 -W ignore notify.py {id}'],
    ['env LANG=C nice -n 5 notify.sh'],
    // A user's script whose file name begins with a program's name is that script (a review's finding).
    ['/abs/t/script.sh -- {id}'],
    ['./exec.sh {id}'],
    ['git-notify.py {alert_title}'],
    ['make-report.py {id}'],
  ])('accepts %j', (command) => {
    expect(() => splitWords(command)).not.toThrow();
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
