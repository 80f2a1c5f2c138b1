export { fleetPage } from './page-routes.tsx'
