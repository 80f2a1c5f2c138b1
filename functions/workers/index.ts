import { createApp } from '../app/app.ts'

export default createApp()
