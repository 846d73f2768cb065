// i18next with i18next-locize-backend reading from lokal. The backend has a locize URL for
// every request it can make and uses it for each one not set here, so every path points at
// lokal: nothing, neither the key nor the project id, goes to locize's servers.
//
//   LOKAL_URL=http://127.0.0.1:8080 LOKAL_PROJECT=<project id> LOKAL_KEY=<read-only key> node i18next-locize-backend.mjs
import i18next from 'i18next'
import LocizeBackend from 'i18next-locize-backend'

const { LOKAL_URL, LOKAL_PROJECT, LOKAL_KEY } = process.env
const api = `${LOKAL_URL}/api`

i18next.on('failedLoading', (lng, ns, msg) => {
  console.error(`lokal: loading ${lng}/${ns} failed: ${msg}`)
  process.exitCode = 1
})

await i18next.use(LocizeBackend).init({
  lng: 'nb',
  fallbackLng: 'en',
  ns: ['common'],
  defaultNS: 'common',
  backend: {
    projectId: LOKAL_PROJECT,
    apiKey: LOKAL_KEY, // sent bare in Authorization; lokal accepts it
    version: 'latest',
    private: true, // send the key: reads privatePath, not loadPath
    // 'pro': a 404 is an error. With 'standard' a 404 reads as an empty namespace and, for an
    // unknown project, the backend asks locize's other CDN (a URL no option changes).
    cdnType: 'pro',
    privatePath: `${api}/{{projectId}}/{{version}}/{{lng}}/{{ns}}`,
    loadPath: `${api}/{{projectId}}/{{version}}/{{lng}}/{{ns}}`,
    getLanguagesPath: `${api}/languages/{{projectId}}`,
    addPath: `${api}/missing/{{projectId}}/{{version}}/{{lng}}/{{ns}}`,
    // lokal has no update endpoint (leave updateMissing off); this keeps the URL on lokal.
    updatePath: `${api}/missing/{{projectId}}/{{version}}/{{lng}}/{{ns}}`,
  },
})

console.log(i18next.t('nav.home'))
console.log(i18next.t('cart.items', { count: 3 }))
