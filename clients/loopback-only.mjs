// Test guard, not a recipe: `node --import ./loopback-only.mjs <recipe>.mjs` refuses every
// fetch to a host other than loopback before it leaves the machine, says so on stderr and
// fails the run, so a recipe that would send a key elsewhere cannot pass its test.
const realFetch = globalThis.fetch
const loopback = new Set(['127.0.0.1', '[::1]', 'localhost'])
let refused = false

globalThis.fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input))
  if (!loopback.has(url.hostname)) {
    refused = true
    process.exitCode = 1
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET')
    console.error(`loopback-only: refused ${method} ${url.origin}${url.pathname}`)
    return Promise.reject(new TypeError(`loopback-only: ${url.host} is not a loopback host`))
  }
  return realFetch(input, init)
}

// A recipe that ends with process.exit(0) still fails.
process.on('exit', () => {
  if (refused) process.exitCode = 1
})
