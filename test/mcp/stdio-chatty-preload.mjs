/**
 * Preloaded into `folio mcp` by test/mcp/stdio.test.ts (`node --import`): stands in for a library
 * that prints on stdout while the server runs (pdf.js and SheetJS print with console.log on some
 * files). Once the first protocol message has gone out, it prints every 50 ms through every path
 * that reaches stdout.
 */
const write = process.stdout.write;
let serving = false;
process.stdout.write = function observed(...args) {
  serving = true;
  return write.apply(this, args);
};
const timer = setInterval(() => {
  if (!serving) return;
  console.log('chatter: console.log from a library');
  console.info('chatter: console.info from a library');
  console.debug('chatter: console.debug from a library');
  console.table([{ chatter: 'console.table' }]);
  process.stdout.write('chatter: a direct process.stdout.write\n');
}, 50);
timer.unref();
