import {
  assetUrlTaskSubmit,
  ERRORS,
  EXPORT_RESULT_NUM,
  EXPORT_VIDEO_LENGTH_TYPE,
  type PresenterLayout,
  projectNameAfterProduct,
  projectSaveDraft,
  type TaskQueryData,
  type TaskStatus,
  type TemplateId,
  taskSubmit,
} from '@reelsmith/contract';
import type { QueryClient } from '@tanstack/react-query';
import type { StoreApi } from 'zustand';
import { ApiError, type api } from '../../../shared/api/client';
import { setProjectName } from '../../../shared/api/projectSummary';
import { i18n } from '../../../shared/i18n/i18n';
import { followTask } from '../../../shared/polling/followTask';
import { PollError } from '../../../shared/polling/poll';
import type { toast } from '../../../shared/ui/toast';
import {
  type AddOutcome,
  addAssets,
  allAssets,
  CAP_MESSAGES,
  formatOfName,
  importFailed,
  importSucceeded,
  nameOf,
  removeAsset,
  submitted,
  tasksForProduct,
} from './assets';
import { localDraftSent, serializeDraft, writeLocalDraft } from './draft';
import { currencyOfLanguage, offerOf } from './offer';
import { foundInAnalysis, productFromAnalysis, scriptFields, usableFileIds, withEditedVideo } from './results';
import { type Segment, splitScript } from './script';
import type { ProjectStore } from './store';
import { askAssetUrlTask, askTask, assetUrlTaskKey, projectTaskKey, readAssetUrlTask, readTask, timedOutAnswer } from './taskApi';
import { emptyProduct, isUnfinished, type Preview, type Product, type Project, type ProjectAsset, type ProjectTaskPath } from './types';
import { lookUpUrls, withUrls } from './urls';
import { type ManualProblems, manualProductProblems } from './validate';

/** Server saves wait this long for more changes, so typing a script sends one draft, not one per key. */
export const SERVER_SAVE_DELAY_MS = 1500;

/** What a controller works with; the app passes the real ones, a test its fakes. */
export interface ControllerDeps {
  store: StoreApi<ProjectStore>;
  api: typeof api;
  toast: Pick<typeof toast, 'error'>;
  refreshCredits: () => unknown;
  /** Where the tasks' answers and the project's summary are held (decision "Server data in queries"). */
  queryClient: QueryClient;
}

export type ProjectController = ReturnType<typeof createProjectController>;

/**
 * The work of one open project (spec "States and transitions"): its polls, its draft saving and the resumption of its tasks. It is
 * made when the project opens and disposed when it closes, so nothing of one project outlives it or reaches the
 * next: its polls stop and its answers land nowhere (each change is applied only while the store still holds
 * this project). A draft save already waiting goes at once, so a change made just before leaving is not lost.
 * The tasks are followed as queries (decision "Server data in queries"): the pages read where they stand from the
 * same cache; what they made goes into the draft, which is all the store holds.
 */
export function createProjectController(projectId: string, { store, api, toast, refreshCredits, queryClient }: ControllerDeps) {
  const polls = new AbortController();
  /** The keys of the tasks followed, forgotten when the project is left (as the store's state of them was). */
  const followedKeys: ReturnType<typeof projectTaskKey>[] = [];
  /** The URL tasks being followed, by local fileId, so a resume does not poll one twice. */
  const followed = new Set<string>();
  let localIds = 0;
  let pendingSave: ReturnType<typeof setTimeout> | null = null;

  const own = (): Project | null => {
    const project = store.getState().project;
    return project?.projectId === projectId ? project : null;
  };
  const update = (change: (project: Project) => Project) =>
    store.setState((state) => (state.project?.projectId === projectId ? { project: change(state.project) } : {}));

  // Drafts

  /** Whether the user was told their storage is too full for the draft, once while it stays so. */
  let toldFull = false;

  function sendDraft(project: Project): Promise<void> {
    const draftContent = serializeDraft(project);
    return api(projectSaveDraft, { body: { projectId, draftContent }, silent: true }).then(
      () => {
        toldFull = false;
        localDraftSent(projectId, draftContent);
      },
      // The local copy holds the change; the next change or save sends it again. A full storage is the one refusal
      // the user can act on (drafts count in the quota, decision "Storage quota"): said once, in the server's words.
      (error: unknown) => {
        if (error instanceof ApiError && error.code === ERRORS.storageQuotaExceeded.code && !toldFull) {
          toldFull = true;
          toast.error(error.message);
        }
      },
    );
  }

  /** The draft the waiting save will send. */
  let waiting: Project | null = null;

  function scheduleServerSave(project: Project): void {
    if (pendingSave) clearTimeout(pendingSave);
    waiting = project;
    pendingSave = setTimeout(() => {
      pendingSave = null;
      void sendDraft(project);
    }, SERVER_SAVE_DELAY_MS);
  }

  /** Saves the draft to the server at once (spec "States and transitions": submitting a video or an export saves the draft). */
  function saveDraftNow(): Promise<void> {
    if (pendingSave) clearTimeout(pendingSave);
    pendingSave = null;
    const project = own();
    if (!project) return Promise.resolve();
    writeLocalDraft(project);
    return sendDraft(project);
  }

  // Drafts follow the project: every change that differs from the stored copy is written locally at once and
  // sent to the server shortly after. The project was put in place before this subscription: it is not saved.
  const unsubscribe = store.subscribe((state, before) => {
    const project = state.project;
    if (project?.projectId !== projectId || project === before.project) return;
    if (writeLocalDraft(project)) scheduleServerSave(project);
  });

  // Task status and failures

  const setTaskStatus = (taskId: string, taskStatus: TaskStatus) =>
    update((project) => (project.taskId === taskId ? { ...project, taskStatus } : project));

  /**
   * Polls a task of the project, keeping its status in the draft (spec "States and transitions"); its progress stage
   * and its failure are the pages' to read from the task's query.
   */
  function pollProjectTask<K extends ProjectTaskPath>(
    kind: K,
    taskId: string,
    tracksProject = true,
    /** What a running task has made so far (its first previews), as each poll answers it. */
    onPartial?: (data: TaskQueryData<K>) => void,
  ): Promise<TaskQueryData<K> | undefined> {
    const queryKey = projectTaskKey(kind, taskId);
    followedKeys.push(queryKey);
    return followTask<TaskQueryData<K>>({
      queryClient,
      queryKey,
      queryFn: askTask(kind, taskId, api),
      read: readTask,
      onAnswer: (data) => {
        if (data.status === 'IN_PROGRESS') onPartial?.(data);
        if (tracksProject) setTaskStatus(taskId, data.status);
      },
      signal: polls.signal,
    }).catch((error: unknown) => {
      // Given up on, the task is over for the pages too: they say so as they say a failure.
      if (error instanceof PollError && error.reason === 'timedOut') {
        queryClient.setQueryData<TaskQueryData<K>>(queryKey, (answer) => timedOutAnswer(answer, taskId) as TaskQueryData<K>);
        if (tracksProject) setTaskStatus(taskId, 'FAILURE');
      }
      throw error;
    });
  }

  /** A poll that ended without a result: the page reads why from the task's query and says it. */
  function failed(error: unknown): void {
    if (!(error instanceof PollError)) throw error;
  }

  /** Marks the project's new task submitted: the pages now read its answers, not the last task's failure. */
  function submittedTask(taskPath: ProjectTaskPath, taskId: string, change: (project: Project) => Project = (p) => p) {
    update((project) => change({ ...project, taskPath, taskId, taskStatus: 'SUBMITTED' }));
  }

  // Link analysis

  /** Analyses the product link, from the page HTML the extension stored when there is one (spec "States and transitions"). */
  async function startAnalysis(): Promise<void> {
    const project = own();
    if (!project) return;
    const { taskId } = await api(taskSubmit('link-analysis'), {
      body: { projectId, productLink: project.productLink, resKey: project.htmlResKey },
    });
    submittedTask('link-analysis', taskId);
    void followAnalysis(taskId);
  }

  /**
   * Analyses another link, or the same one again, after an analysis failed (decision "Manual product entry"); a
   * page the browser extension stored belongs to the link it came with.
   */
  async function analyseLink(productLink: string): Promise<void> {
    update((project) => {
      if (project.productLink === productLink) return project;
      const { htmlResKey: _otherPage, ...rest } = project;
      return { ...rest, productLink };
    });
    await startAnalysis();
  }

  /**
   * Follows an analysis to its end; one that failed is asked again after a reload, so the page can say why (its
   * error is told in the reader's language when read).
   */
  async function followAnalysis(taskId: string): Promise<void> {
    try {
      const data = await pollProjectTask('link-analysis', taskId);
      const project = own();
      if (!data || !project) return;
      const { product, pending, dropped } = productFromAnalysis(project.product, foundInAnalysis(data), currencyOfLanguage(i18n.language));
      if (dropped > 0) toast.error(i18n.t('link-to-video:product.partAssetsError'));
      update(({ htmlResKey: _analysed, ...rest }) => ({
        // The stored page served its analysis; a re-run fetches the live page.
        ...rest,
        product,
        mediaImport: data.mediaImport ?? null,
        manualProduct: null,
        assetUrlTasks: [
          ...tasksForProduct(rest.assetUrlTasks, product),
          ...pending.map((fileId) => ({ fileId, taskId: null, taskStatus: 'NOT_START' as const })),
        ],
      }));
      void nameAfterProduct(product.productName);
      await refreshAssetUrls();
      resumeAssetUrlTasks();
    } catch (error) {
      failed(error);
    }
  }

  /**
   * An untitled project takes its product's name, and follows its renames (decision "Projects named after the
   * product"); the service keeps a name the user gave, and answers the name the project now has, which the project's summary takes: the header
   * and every page read it there (decision "Server data in queries").
   */
  async function nameAfterProduct(productName: string): Promise<void> {
    if (!productName.trim()) return;
    try {
      const { projectName } = await api(projectNameAfterProduct, { body: { projectId, productName }, silent: true });
      if (!polls.signal.aborted) await setProjectName(queryClient, projectId, projectName);
    } catch {
      // The project keeps the name it had; the header can still rename it.
    }
  }

  // A product entered by hand

  const manualOf = (project: Project): Product => project.manualProduct ?? emptyProduct();

  function patchManualProduct(patch: Pick<Partial<Product>, 'productName' | 'productDescription'>): void {
    update((project) => ({ ...project, manualProduct: { ...manualOf(project), ...patch } }));
  }

  /**
   * Goes on with the product entered by hand as if an analysis had found it, and names the project after it. It
   * needs what a video needs, a name and a picture: answers what is missing (message keys by field), else null.
   */
  function enterProductByHand(): ManualProblems | null {
    const project = own();
    if (!project) return null;
    const entered = manualOf(project);
    const problems = manualProductProblems(entered);
    if (problems) return problems;
    const currency = entered.productCurrency || currencyOfLanguage(i18n.language);
    update((current) => ({
      ...current,
      product: { ...entered, productName: entered.productName.trim(), productCurrency: currency },
      manualProduct: null,
      mediaImport: null,
    }));
    void nameAfterProduct(entered.productName);
    return null;
  }

  /** Renews the links of the project in place (they are signed and expire). */
  async function refreshAssetUrls(): Promise<void> {
    const project = own();
    if (!project) return;
    const { byKey, byFileId } = await lookUpUrls(project, api);
    update((current) => withUrls(current, byKey, byFileId));
  }

  // Assets

  /**
   * Adds items to the product, or to the product being entered by hand, within the cap; the message of spec
   * "Validation rules" says what did not fit.
   */
  function addAssetsTo(field: 'product' | 'manualProduct', items: ProjectAsset[]): AddOutcome {
    const project = own();
    if (!project) return 'none';
    const { product, outcome } = addAssets(project[field] ?? emptyProduct(), items);
    const message = CAP_MESSAGES[outcome];
    if (message) toast.error(i18n.t(`link-to-video:${message}`));
    update((current) => ({ ...current, [field]: product }));
    return outcome;
  }

  const addProductAssets = (items: ProjectAsset[]): AddOutcome => addAssetsTo('product', items);

  /** Imports an asset from a link (spec "States and transitions" asset URL task): a placeholder item now, the stored file when it lands. */
  function importAssetFromUrl(url: string): AddOutcome {
    const fileId = `url-${Date.now().toString(36)}-${++localIds}`;
    const outcome = addProductAssets([{ fileId, fileName: nameOf(url), fileUrl: url, resKey: null, format: formatOfName(url) }]);
    const project = own();
    if (!project || !allAssets(project.product ?? emptyProduct()).some((item) => item.fileId === fileId)) return outcome;
    update((current) => ({ ...current, assetUrlTasks: [...current.assetUrlTasks, { fileId, taskId: null, taskStatus: 'NOT_START' }] }));
    resumeAssetUrlTasks();
    return outcome;
  }

  /** Submits URL tasks not yet started and polls the submitted ones; the project's task status is left alone. */
  function resumeAssetUrlTasks(): void {
    for (const task of own()?.assetUrlTasks ?? []) {
      if (followed.has(task.fileId)) continue;
      followed.add(task.fileId);
      void followAssetUrlTask(task.fileId, task.taskId).finally(() => followed.delete(task.fileId));
    }
  }

  const assetUrlResult =
    (change: (product: Product, tasks: Project['assetUrlTasks']) => { product: Product; tasks: Project['assetUrlTasks'] }) =>
    (project: Project): Project => {
      const { product, tasks } = change(project.product ?? emptyProduct(), project.assetUrlTasks);
      return { ...project, product, assetUrlTasks: tasks };
    };

  async function followAssetUrlTask(fileId: string, knownTaskId: string | null): Promise<void> {
    const signal = polls.signal;
    const fail = () => update(assetUrlResult((product, tasks) => importFailed(product, tasks, fileId)));
    let taskId = knownTaskId;
    if (!taskId) {
      const url = allAssets(own()?.product ?? emptyProduct()).find((item) => item.fileId === fileId)?.fileUrl ?? '';
      try {
        taskId = (await api(assetUrlTaskSubmit, { body: { url }, signal })).fileId;
      } catch {
        if (!signal.aborted) fail();
        return;
      }
      const started = taskId;
      update((p) => ({ ...p, assetUrlTasks: submitted(p.assetUrlTasks, fileId, started) }));
    }
    const id = taskId;
    try {
      const queryKey = assetUrlTaskKey(id);
      followedKeys.push(queryKey);
      const data = await followTask({ queryClient, queryKey, queryFn: askAssetUrlTask(id, api), read: readAssetUrlTask, signal });
      if (!data) return;
      const stored = { fileId: id, resKey: data.fileKey ?? '', fileUrl: data.fileUrl ?? '' };
      update(assetUrlResult((product, tasks) => importSucceeded(product, tasks, fileId, stored)));
    } catch (error) {
      if (!(error instanceof PollError)) throw error;
      toast.error(error.message);
      fail();
    }
  }

  // Generation

  /**
   * Submits the video task: SUBMITTED, the preview cleared, the draft saved, then the preview polled (spec "States and
   * transitions"). The offer and brand go with it for the offer and end cards, the template in the editor config.
   */
  async function submitLinkVideo(): Promise<void> {
    const project = own();
    if (!project?.product) return;
    const { product, editorConfig } = project;
    const { taskId } = await api(taskSubmit('link-video'), {
      body: {
        projectId,
        productLink: project.productLink,
        productName: product.productName,
        productDescription: product.productDescription,
        productOffer: offerOf(product).offer,
        productBrand: product.productBrand?.trim() || undefined,
        productRating: product.productRating ?? undefined,
        productFacts: product.productFacts ?? undefined,
        ...scriptFields(product),
        fileIds: usableFileIds(project),
        editorConfig,
        captionId: editorConfig.captionId,
        voiceId: editorConfig.voiceId,
      },
    });
    submittedTask('link-video', taskId, (p) => ({ ...p, preview: null, exports: null, exportTaskIds: [], editedScriptId: null }));
    await saveDraftNow();
    void followPreview('link-video', taskId);
  }

  async function followPreview(kind: 'link-video' | 'script-update', taskId: string): Promise<void> {
    // The previews of link-video show one by one as each lands (the task answers those made so far).
    const landed = (data: Partial<Preview>) => {
      const previewVideos = data.previewVideos ?? [];
      if (previewVideos.length === 0) return;
      const partial = { previewVideos, scriptContentList: data.scriptContentList ?? [] };
      update((project) =>
        project.taskId === taskId && project.preview?.previewVideos.length !== previewVideos.length
          ? { ...project, preview: partial, editedScriptId: project.editedScriptId ?? previewVideos[0]?.scriptId ?? null }
          : project,
      );
    };
    try {
      const data = await pollProjectTask(kind, taskId, true, kind === 'link-video' ? landed : undefined);
      if (!data) return;
      const result = { previewVideos: data.previewVideos ?? [], scriptContentList: data.scriptContentList ?? [] };
      update((project) =>
        kind === 'link-video'
          ? { ...project, preview: result, editedScriptId: result.previewVideos[0]?.scriptId ?? null }
          : withEditedVideo(project, result),
      );
    } catch (error) {
      failed(error);
    }
  }

  /**
   * Re-renders the edited video with its customised script (spec "States and transitions"), and with the voice, subtitle style and
   * music the quick editor has chosen since: without them the render keeps the first generation's. A template
   * chosen for this video goes with it; without one the service keeps the video's own (decision "Template picker").
   * So does a presenter put on camera, or taken off (null), and where they stand (null: the template's place);
   * without them the video keeps its own (decisions "Presenter in link to video", "Presenter layouts").
   */
  async function submitScriptUpdate(
    segments: Segment[],
    {
      templateId,
      presenterId,
      presenterLayout,
    }: { templateId?: TemplateId; presenterId?: string | null; presenterLayout?: PresenterLayout | null } = {},
  ): Promise<void> {
    const project = own();
    const video = project?.preview?.previewVideos.find((item) => item.scriptId === project.editedScriptId);
    if (!project || !video) return;
    const { voiceId, captionId, musicId } = project.editorConfig;
    const { taskId } = await api(taskSubmit('script-update'), {
      body: {
        projectId,
        taskId: video.taskId,
        resultNum: 1,
        scriptId: video.scriptId,
        scriptContents: segments,
        voiceId,
        captionId,
        musicId,
        templateId,
        presenterId,
        presenterLayout,
      },
    });
    submittedTask('script-update', taskId);
    await saveDraftNow();
    void followPreview('script-update', taskId);
  }

  /** Keeps the script typed in the quick editor (autosave): the edited video's segments. */
  function saveEditedScript(text: string): void {
    const project = own();
    const scriptId = project?.editedScriptId;
    if (!project?.preview || !scriptId) return;
    const segments = splitScript(text);
    update((p) => ({
      ...p,
      preview: p.preview && {
        ...p.preview,
        scriptContentList: p.preview.scriptContentList.map((item) => (item.scriptId === scriptId ? { ...item, segments } : item)),
      },
    }));
  }

  // Export

  /**
   * Renders the chosen previews in full quality (spec "States and transitions"): one export task each with resultNum 1 and
   * videoLengthType "2", then credits refreshed, exports cleared, the draft saved and the exports polled. `aiLabel`
   * is the page's switch: whether the videos carry the AI-generated label.
   */
  async function submitExport(scriptIds: string[], aiLabel?: boolean): Promise<void> {
    const project = own();
    const videos = (project?.preview?.previewVideos ?? []).filter((video) => scriptIds.includes(video.scriptId));
    if (!project || videos.length === 0) return;
    const taskIds: string[] = [];
    for (const video of videos) {
      const answer = await api(taskSubmit('export-video'), {
        body: {
          projectId,
          taskId: video.taskId,
          resultNum: EXPORT_RESULT_NUM,
          scriptId: video.scriptId,
          videoLengthType: EXPORT_VIDEO_LENGTH_TYPE,
          aiLabel,
        },
      });
      taskIds.push(answer.taskId);
    }
    const last = taskIds[taskIds.length - 1] ?? '';
    submittedTask('export-video', last, (p) => ({ ...p, exports: null, exportTaskIds: taskIds }));
    void refreshCredits();
    await saveDraftNow();
    void followExports(taskIds);
  }

  async function followExports(taskIds: string[]): Promise<void> {
    const results = await Promise.allSettled(
      taskIds.map(async (taskId) => {
        // Only the last is the project's task; its status is set once every export has ended.
        const data = await pollProjectTask('export-video', taskId, false);
        if (!data) return;
        const exportVideos = data.exportVideos ?? [];
        update((project) => ({
          ...project,
          exports: { exportVideos: [...(project.exports?.exportVideos ?? []).filter((v) => v.taskId !== taskId), ...exportVideos] },
        }));
      }),
    );
    if (polls.signal.aborted) return;
    const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    const anyDone = results.some((result) => result.status === 'fulfilled');
    update((project) => ({ ...project, taskStatus: anyDone ? 'SUCCESS' : 'FAILURE' }));
    if (failure) failed(failure.reason);
  }

  /** Unfinished tasks resume on return (spec "States and transitions"); one already at SUCCESS is not asked again. */
  function resumeTasks(): void {
    const project = own();
    if (!project) return;
    resumeAssetUrlTasks();
    const { taskId, taskPath, taskStatus } = project;
    if (!taskId || !taskPath) return;
    // A failed analysis is asked again for its reason while its page shows it (nothing is being made then).
    const failedAnalysis = taskPath === 'link-analysis' && taskStatus === 'FAILURE' && !project.product;
    if (!isUnfinished(taskStatus) && !failedAnalysis) return;
    if (taskPath === 'link-analysis') void followAnalysis(taskId);
    else if (taskPath === 'export-video') {
      const done = new Set((project.exports?.exportVideos ?? []).map((video) => video.taskId));
      const ids = project.exportTaskIds.length > 0 ? project.exportTaskIds : [taskId];
      void followExports(ids.filter((id) => !done.has(id)));
    } else void followPreview(taskPath, taskId);
  }

  return {
    projectId,
    startAnalysis,
    analyseLink,
    patchManualProduct,
    addManualPictures: (items: ProjectAsset[]) => addAssetsTo('manualProduct', items),
    removeManualPicture: (fileId: string) => update((p) => ({ ...p, manualProduct: removeAsset(manualOf(p), fileId) })),
    enterProductByHand,
    addProductAssets,
    importAssetFromUrl,
    submitLinkVideo,
    submitScriptUpdate,
    saveEditedScript,
    submitExport,
    resumeTasks,
    saveDraftNow,
    /** The product's name as the user left it: a project named after its product takes the new name. */
    productNameSettled: (productName: string) => nameAfterProduct(productName),
    /** Changes product fields; the draft follows. */
    patchProduct: (patch: Partial<Product>) => update((p) => ({ ...p, product: { ...(p.product ?? emptyProduct()), ...patch } })),
    patchEditorConfig: (patch: Partial<Project['editorConfig']>) =>
      update((p) => ({ ...p, editorConfig: { ...p.editorConfig, ...patch } })),
    /** Removes an asset, and its URL import if it was one. */
    removeProductAsset: (fileId: string) => update(assetUrlResult((product, tasks) => importFailed(product, tasks, fileId))),
    editVideo: (scriptId: string) => update((p) => ({ ...p, editedScriptId: scriptId })),
    /** The project is left: its polls stop and its changes are no longer followed. */
    dispose(): void {
      polls.abort();
      unsubscribe();
      for (const queryKey of followedKeys) queryClient.removeQueries({ queryKey, exact: true });
      // A save still waiting goes now, as the project is left: its change is not lost, and it does not go off later
      // in whatever the user (or the next test) is doing by then.
      if (pendingSave && waiting) {
        clearTimeout(pendingSave);
        pendingSave = null;
        void sendDraft(waiting);
      }
    },
  };
}
