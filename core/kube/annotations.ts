export const LEGACY_CLASS_ANNOTATION = 'kubernetes.io/ingress.class'
