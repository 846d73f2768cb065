// i18next with i18next-http-backend: translations from lokal and, in development, keys the
// code uses that lokal lacks reported back (saveMissing).
//
//   LOKAL_URL=http://127.0.0.1:8080 LOKAL_PROJECT=<project id> LOKAL_KEY=<key> node i18next-http-backend.mjs
//
// Reporting needs a read/write key, so saveMissing belongs in development only; an app
// that is shipped loads with the read-only key and leaves saveMissing off.
import i18next from 'i18next'
import HttpBackend from 'i18next-http-backend'

const { LOKAL_URL, LOKAL_PROJECT, LOKAL_KEY } = process.env

await i18next.use(HttpBackend).init({
  lng: 'nb',
  fallbackLng: 'en',
  ns: ['common'],
  defaultNS: 'common',
  saveMissing: true, // development only: needs a read/write key
  backend: {
    loadPath: `${LOKAL_URL}/api/${LOKAL_PROJECT}/latest/{{lng}}/{{ns}}`,
    addPath: `${LOKAL_URL}/api/missing/${LOKAL_PROJECT}/latest/{{lng}}/{{ns}}`,
    customHeaders: { Authorization: `Token token=${LOKAL_KEY}` },
    // i18next drops a failed request without a word (a read-only key's 403 on a report, the
    // 404 of a namespace lokal does not have yet): say so, and fail.
    alternateFetch: async (url, options) => {
      const res = await fetch(url, options)
      if (!res.ok) {
        console.error(`lokal: ${options.method} ${url} answered ${res.status}: ${await res.clone().text()}`)
        process.exitCode = 1
      }
      return res
    },
  },
})

console.log(i18next.t('nav.home'))
console.log(i18next.t('cart.items', { count: 3 }))
console.log(i18next.t('checkout.pay', 'Pay now')) // not in lokal yet: reported as missing
