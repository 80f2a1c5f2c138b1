import { z } from 'zod'
import { annotations, dnsLabel, labels, objectName, timestamp } from '../syntax/fields.ts'

export const namespacedMetadata = z.object({
  name: objectName,
  namespace: dnsLabel,
  creationTimestamp: timestamp.optional(),
  labels: labels.nullish(),
  annotations: annotations.nullish(),
})

export const clusterMetadata = namespacedMetadata.omit({ namespace: true })
