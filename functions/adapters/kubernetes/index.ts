export { kubeConfigFrom, type KubeCredentials } from './kube-config.ts'
export { kubernetesClusterWriter, KUBERNETES_WRITER, type KubernetesWriterOptions } from './status-writer.ts'
export { followHaproxyCfg, type FollowOptions, type Following } from './watch-haproxycfg.ts'
