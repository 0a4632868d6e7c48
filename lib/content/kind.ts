/**
 * What makes ideas and articles differ, as one value per kind: their config section, their access
 * rules and their store. The create / update / delete flow (lib/content/service.ts) is the same for
 * both and takes one of these.
 */
import type { Caller } from '#lib/auth/caller';
import type { Site } from '#lib/sites/site';
import type { SiteConfig } from '#lib/sites/config-defaults';
import type { ContentItem, ContentWriteOutcome } from '#lib/store/content/content-items';
import type { FieldDefinition } from '#schemas/extra-data-definition';
import type { LengthLimits } from '#schemas/content-item';

/** `config.ideas` or `config.articles`, as far as content rules read it. */
export interface ContentSection extends LengthLimits {
  extraData?: Record<string, FieldDefinition> | undefined;
  extraDataMustBeDefined?: boolean | undefined;
}

export interface ContentKindRules {
  /** `Idea` / `Article`, for messages. */
  label: string;
  section(config: SiteConfig): ContentSection;
  assertCreate(caller: Caller, config: SiteConfig): void;
  /** May the caller change or delete this item (may read more, e.g. an idea's votes)? */
  assertModify(caller: Caller, item: ContentItem, site: Site): Promise<void>;
  /**
   * Fields only this kind has (ideas: `tags`, `location`), validated from the body: on create with
   * their defaults, on update only those sent. Applied over the item written.
   */
  kindFields?(site: Site, body: Record<string, unknown>, mode: 'create' | 'update'): Promise<Partial<ContentItem>>;
  store: {
    /** `includeDeleting`: also a tombstone of an idea whose delete did not finish (the delete path). */
    get(siteId: number, id: number, options?: { includeDeleting?: boolean }): Promise<ContentItem | undefined>;
    putNew(item: ContentItem, options: { checkUser?: number | undefined }): Promise<ContentWriteOutcome>;
    replace(item: ContentItem, expectedVersion: number, options: { checkUser?: number | undefined }): Promise<ContentWriteOutcome>;
    remove(siteId: number, id: number): Promise<boolean>;
  };
}
