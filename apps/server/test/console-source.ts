/**
 * Reads the console's source (apps/web/src) without running it, for the contract tests: every
 * API call it makes (method and path) and the fields of its resource forms with the shared
 * schemas they are checked against. Syntax only (no type checker, so it takes a second): a path
 * is followed through template literals, local constants and helper functions, conditionals and
 * string-literal parameter types; what it cannot follow is reported, not skipped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const here = path.dirname(fileURLToPath(import.meta.url));
export const WEB_SRC = path.resolve(here, '../../web/src');

/** Stands for a value the console fills in at run time (a group id, a serial number). */
export const ANY = '\u0000';

export interface ConsoleCall {
  method: string;
  /** The path under /api, with ANY where a value goes. */
  path: string;
  /** file:line, relative to apps/web/src. */
  where: string;
}

export interface Unreadable {
  what: string;
  where: string;
}

/** Files whose calls pass a path through (the client itself, the generic resource): their callers are read instead. */
const PLUMBING = new Set(['lib/api-client.ts', 'lib/api-transfer.ts', 'components/resource-table/resource.ts']);

function sourceFiles(dir = WEB_SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

let parsed: ts.SourceFile[] | undefined;
function consoleFiles(): ts.SourceFile[] {
  parsed ??= sourceFiles().map((file) =>
    ts.createSourceFile(
      path.relative(WEB_SRC, file).split(path.sep).join('/'),
      readFileSync(file, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
      file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    ),
  );
  return parsed;
}

function where(node: ts.Node): string {
  const file = node.getSourceFile();
  return `${file.fileName}:${String(file.getLineAndCharacterOfPosition(node.getStart()).line + 1)}`;
}

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => {
    walk(child, visit);
  });
}

const unwrap = (node: ts.Expression): ts.Expression =>
  ts.isParenthesizedExpression(node) ||
  ts.isAsExpression(node) ||
  ts.isSatisfiesExpression(node) ||
  ts.isNonNullExpression(node) ||
  ts.isTypeAssertionExpression(node)
    ? unwrap(node.expression)
    : node;

/** The local name → module of each import of a file. */
function importsOf(file: ts.SourceFile): Map<string, { module: string; name: string }> {
  const imports = new Map<string, { module: string; name: string }>();
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) {
      imports.set(element.name.text, {
        module: statement.moduleSpecifier.text,
        name: (element.propertyName ?? element.name).text,
      });
    }
  }
  return imports;
}

type Declaration = ts.VariableDeclaration | ts.FunctionDeclaration | ts.ParameterDeclaration;

let byName: Map<string, ts.SourceFile> | undefined;

/** The console file an import names, if it is one of ours. */
function importedFile(from: ts.SourceFile, module: string): ts.SourceFile | undefined {
  if (!module.startsWith('.')) return undefined;
  const base = path.posix.join(path.posix.dirname(from.fileName), module);
  byName ??= new Map(consoleFiles().map((file) => [file.fileName, file]));
  for (const suffix of ['.ts', '.tsx', '/index.ts', '/index.tsx']) {
    const file = byName.get(base + suffix);
    if (file) return file;
  }
  return undefined;
}

/** A top-level function or constant of a file. */
function topLevel(file: ts.SourceFile, name: string): Declaration | undefined {
  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name?.text === name) return statement;
    if (ts.isVariableStatement(statement)) {
      const found = statement.declarationList.declarations.find((d) => ts.isIdentifier(d.name) && d.name.text === name);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The declaration an identifier refers to: looked up scope by scope, then through the file's
 * imports into the console's other files.
 */
function declarationOf(identifier: ts.Identifier): Declaration | undefined {
  const name = identifier.text;
  for (let scope: ts.Node = identifier.parent; ; scope = scope.parent) {
    if (ts.isFunctionLike(scope)) {
      const parameter = scope.parameters.find((p) => ts.isIdentifier(p.name) && p.name.text === name);
      if (parameter) return parameter;
    }
    if (ts.isBlock(scope) || ts.isSourceFile(scope) || ts.isModuleBlock(scope)) {
      for (const statement of scope.statements) {
        if (ts.isFunctionDeclaration(statement) && statement.name?.text === name) return statement;
        if (ts.isVariableStatement(statement)) {
          const found = statement.declarationList.declarations.find((d) => ts.isIdentifier(d.name) && d.name.text === name);
          if (found) return found;
        }
      }
    }
    if (ts.isSourceFile(scope)) break;
  }
  const file = identifier.getSourceFile();
  const imported = importsOf(file).get(name);
  if (!imported) return undefined;
  const target = importedFile(file, imported.module);
  return target && topLevel(target, imported.name);
}

/** A constant's value, or a function's declaration, behind a declaration. */
function definitionOf(declaration: Declaration | undefined): ts.Expression | ts.FunctionDeclaration | undefined {
  if (!declaration || ts.isParameter(declaration)) return undefined;
  if (ts.isFunctionDeclaration(declaration)) return declaration;
  const constant = (declaration.parent.flags & ts.NodeFlags.Const) !== 0;
  return constant && declaration.initializer ? unwrap(declaration.initializer) : undefined;
}

/** The string values a type annotation allows, when it is a union of string literals. */
function literalsOfType(type: ts.TypeNode | undefined): string[] | undefined {
  if (!type) return undefined;
  const members = ts.isUnionTypeNode(type) ? type.types : [type];
  const values = members.map((member) =>
    ts.isLiteralTypeNode(member) && ts.isStringLiteral(member.literal) ? member.literal.text : undefined,
  );
  return values.every((v) => v !== undefined) ? values : undefined;
}

const product = (left: string[], right: string[]) => left.flatMap((l) => right.map((r) => l + r));

/** The arguments a helper function was called with, while following its body: each with the caller's bindings. */
type Bindings = Map<ts.ParameterDeclaration, { argument: ts.Expression | undefined; bindings: Bindings }>;

const isFunction = (node: ts.Node | undefined): node is ts.ArrowFunction | ts.FunctionDeclaration | ts.FunctionExpression =>
  node !== undefined && (ts.isArrowFunction(node) || ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node));

/** What a call of a console function returns, with its parameters bound to the call's arguments. */
function returnedBy(call: ts.CallExpression, bindings: Bindings): { expression: ts.Expression; bindings: Bindings } | undefined {
  if (!ts.isIdentifier(call.expression)) return undefined;
  const fn = definitionOf(declarationOf(call.expression));
  if (!isFunction(fn) || !fn.body) return undefined;
  let expression: ts.Expression | undefined;
  if (!ts.isBlock(fn.body)) expression = fn.body;
  else {
    const returns = fn.body.statements.filter(ts.isReturnStatement);
    expression = returns.length === 1 ? returns[0]?.expression : undefined;
  }
  if (!expression) return undefined;
  const inner: Bindings = new Map();
  fn.parameters.forEach((parameter, index) => {
    inner.set(parameter, { argument: call.arguments[index], bindings });
  });
  return { expression, bindings: inner };
}

/** The strings an expression can be, with ANY for what is only known at run time. */
function valuesOf(node: ts.Expression, bindings: Bindings = new Map(), depth = 0): string[] {
  if (depth > 16) return [ANY];
  const next = (expression: ts.Expression, more: Bindings = bindings) => valuesOf(expression, more, depth + 1);
  const expression = unwrap(node);
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) return [expression.text];
  if (ts.isNumericLiteral(expression)) return [expression.text];
  if (ts.isTemplateExpression(expression)) {
    let values = [expression.head.text];
    for (const span of expression.templateSpans) values = product(product(values, next(span.expression)), [span.literal.text]);
    return values;
  }
  if (ts.isBinaryExpression(expression) && expression.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    return product(next(expression.left), next(expression.right));
  }
  if (ts.isConditionalExpression(expression)) return [...next(expression.whenTrue), ...next(expression.whenFalse)];
  if (ts.isCallExpression(expression)) {
    const [first] = expression.arguments;
    if (
      ts.isIdentifier(expression.expression) &&
      ['String', 'encodeURIComponent', 'Number'].includes(expression.expression.text)
    ) {
      return first ? next(first) : [ANY];
    }
    const returned = returnedBy(expression, bindings);
    return returned ? next(returned.expression, returned.bindings) : [ANY];
  }
  if (ts.isIdentifier(expression)) {
    const declaration = declarationOf(expression);
    if (declaration && ts.isParameter(declaration)) {
      const bound = bindings.get(declaration);
      if (bound?.argument) return next(bound.argument, bound.bindings);
      return literalsOfType(declaration.type) ?? [ANY];
    }
    const value = definitionOf(declaration);
    if (value && !isFunction(value)) return next(value);
    return (declaration && ts.isVariableDeclaration(declaration) && literalsOfType(declaration.type)) || [ANY];
  }
  if (ts.isElementAccessExpression(expression) && ts.isIdentifier(expression.expression)) {
    // A lookup in a constant table: any of its values.
    const table = definitionOf(declarationOf(expression.expression));
    if (table && ts.isObjectLiteralExpression(table)) {
      return table.properties.flatMap((p) => (ts.isPropertyAssignment(p) ? next(p.initializer) : [ANY]));
    }
  }
  return [ANY];
}

const CALL_SPEC = /^(GET|POST|PUT|DELETE|PATCH) (\/\S*)$/;

/** A resource call ('PUT /type/{typeId}/TypeModule/Sort', 'POST /Client/Delete#Id') as a method and a path. */
function fromCallSpec(spec: string): { method: string; path: string } | undefined {
  const match = CALL_SPEC.exec(spec);
  if (!match?.[1] || !match[2]) return undefined;
  const bare = match[2].replace(/[?#]\w+$/, '');
  return { method: match[1], path: bare.replace(/\{\w+\}|:id\b/g, ANY) };
}

/** Whether an import of `file` is the API client or its transfer helpers. */
const clientModule = (file: ts.SourceFile, module: string | undefined) =>
  module !== undefined &&
  module.startsWith('.') &&
  ['lib/api-client', 'lib/api-transfer'].includes(path.posix.join(path.posix.dirname(file.fileName), module));

/** The option `name` of an object literal argument, when it is a string literal. */
function optionOf(argument: ts.Expression | undefined, name: string): string | undefined {
  const object = argument && unwrap(argument);
  if (!object || !ts.isObjectLiteralExpression(object)) return undefined;
  const property = object.properties.find(
    (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === name,
  );
  const value = property && unwrap(property.initializer);
  return value && ts.isStringLiteral(value) ? value.text : undefined;
}

/** Every call the console makes to the API, and the calls whose path could not be read. */
export function consoleCalls(): { calls: ConsoleCall[]; unreadable: Unreadable[] } {
  const calls: ConsoleCall[] = [];
  const unreadable: Unreadable[] = [];
  for (const file of consoleFiles()) {
    if (PLUMBING.has(file.fileName)) continue;
    const imports = importsOf(file);
    const fromClient = (name: string) => clientModule(file, imports.get(name)?.module) && imports.get(name)?.name;
    walk(file, (node) => {
      // Resource calls, written as 'METHOD /path' strings.
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
        const spec = fromCallSpec(node.text);
        if (spec) calls.push({ ...spec, where: where(node) });
        return;
      }
      if (!ts.isCallExpression(node)) return;
      const callee = node.expression;
      let method: string | undefined;
      let pathArgument: ts.Expression | undefined;
      if (
        ts.isPropertyAccessExpression(callee) &&
        ts.isIdentifier(callee.expression) &&
        fromClient(callee.expression.text) === 'api'
      ) {
        method = callee.name.text.toUpperCase();
        pathArgument = node.arguments[0];
      } else if (ts.isIdentifier(callee)) {
        const name = fromClient(callee.text);
        if (name === 'fetchAllPages' || name === 'downloadFile') {
          method = 'GET';
          pathArgument = node.arguments[0];
        } else if (name === 'uploadWithProgress') {
          method = optionOf(node.arguments[2], 'method') ?? 'POST';
          pathArgument = node.arguments[0];
        } else if (name === 'request') {
          const [methodArgument] = node.arguments;
          const methods = methodArgument ? valuesOf(methodArgument) : [];
          method = methods.length === 1 && methods[0] !== ANY ? methods[0] : undefined;
          pathArgument = node.arguments[1];
          if (!method) unreadable.push({ what: 'the method of a request() call', where: where(node) });
        }
      }
      if (!method || !pathArgument) return;
      for (const value of valuesOf(pathArgument)) {
        if (!value.startsWith('/'))
          unreadable.push({ what: `the path of a ${method} call (${value.replaceAll(ANY, '…')})`, where: where(node) });
        else calls.push({ method, path: value, where: where(node) });
      }
    });
  }
  return { calls, unreadable };
}

// ---- Resource forms ------------------------------------------------------------------------------

/** A shared schema a form names: the module it is imported from and its export. */
export interface SchemaRef {
  module: string;
  name: string;
}

/** One field of a resource form, as one of the shapes its declaration can take. */
export interface FormField {
  name: string;
  /** The dialogs showing it. */
  modes: ('create' | 'edit')[];
  /** It brings its own rules instead of the schema's (a confirmation field, say). */
  ownRules: boolean;
  /** Read-only in the edit dialog, so unchecked there. */
  readOnlyInEdit: boolean;
  where: string;
}

export interface ConsoleForm {
  createSchema: SchemaRef;
  updateSchema: SchemaRef;
  fields: FormField[];
  where: string;
}

interface Located {
  expression: ts.Expression;
  bindings: Bindings;
}

type Props = Map<string, Located>;

/** Whether a condition is known: a helper's parameter that was given an argument or not. */
function knownCondition(condition: ts.Expression, bindings: Bindings): boolean | undefined {
  const bare = unwrap(condition);
  if (!ts.isIdentifier(bare)) return undefined;
  const declaration = declarationOf(bare);
  if (!declaration || !ts.isParameter(declaration) || !bindings.has(declaration)) return undefined;
  const argument = bindings.get(declaration)?.argument;
  return argument !== undefined && !(ts.isIdentifier(argument) && argument.text === 'undefined');
}

/** The shapes an object expression can have: its properties, through spreads, constants, helpers and conditions. */
function objectShapes(node: ts.Expression, bindings: Bindings, depth = 0): Props[] | undefined {
  if (depth > 16) return undefined;
  const expression = unwrap(node);
  if (ts.isObjectLiteralExpression(expression)) {
    let shapes: Props[] = [new Map<string, Located>()];
    for (const property of expression.properties) {
      if (ts.isSpreadAssignment(property)) {
        const spread = objectShapes(property.expression, bindings, depth + 1);
        if (!spread) return undefined;
        shapes = shapes.flatMap((shape) => spread.map((more) => new Map([...shape, ...more])));
      } else if (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) {
        const name = property.name.text;
        const value = ts.isPropertyAssignment(property)
          ? property.initializer
          : ts.isShorthandPropertyAssignment(property)
            ? property.name
            : ts.factory.createTrue(); // a method: present, value unread
        for (const shape of shapes) shape.set(name, { expression: value, bindings });
      }
    }
    return shapes;
  }
  if (ts.isConditionalExpression(expression)) {
    const known = knownCondition(expression.condition, bindings);
    if (known !== undefined) return objectShapes(known ? expression.whenTrue : expression.whenFalse, bindings, depth + 1);
    const whenTrue = objectShapes(expression.whenTrue, bindings, depth + 1);
    const whenFalse = objectShapes(expression.whenFalse, bindings, depth + 1);
    return whenTrue && whenFalse ? [...whenTrue, ...whenFalse] : undefined;
  }
  if (ts.isIdentifier(expression)) {
    const declaration = declarationOf(expression);
    if (declaration && ts.isParameter(declaration)) {
      const bound = bindings.get(declaration);
      return bound?.argument ? objectShapes(bound.argument, bound.bindings, depth + 1) : undefined;
    }
    const value = definitionOf(declaration);
    return value && !isFunction(value) ? objectShapes(value, new Map(), depth + 1) : undefined;
  }
  if (ts.isCallExpression(expression)) {
    const returned = returnedBy(expression, bindings);
    return returned ? objectShapes(returned.expression, returned.bindings, depth + 1) : undefined;
  }
  return undefined;
}

/** The elements of an array expression (spreads, constants and `.filter()` followed), or undefined when unreadable. */
function elementsOf(node: ts.Expression, bindings: Bindings, depth = 0): Located[] | undefined {
  if (depth > 16) return undefined;
  const expression = unwrap(node);
  if (ts.isArrayLiteralExpression(expression)) {
    const elements: Located[] = [];
    for (const element of expression.elements) {
      if (ts.isSpreadElement(element)) {
        const spread = elementsOf(element.expression, bindings, depth + 1);
        if (!spread) return undefined;
        elements.push(...spread);
      } else if (!ts.isOmittedExpression(element)) elements.push({ expression: element, bindings });
    }
    return elements;
  }
  if (ts.isIdentifier(expression)) {
    const value = definitionOf(declarationOf(expression));
    return value && !isFunction(value) ? elementsOf(value, new Map(), depth + 1) : undefined;
  }
  if (
    ts.isCallExpression(expression) &&
    ts.isPropertyAccessExpression(expression.expression) &&
    expression.expression.name.text === 'filter'
  ) {
    return elementsOf(expression.expression.expression, bindings, depth + 1);
  }
  return undefined;
}

/** The shared schema an expression names (an import from @sluice/shared, perhaps through a constant). */
function schemaOf(node: ts.Expression): SchemaRef | undefined {
  const expression = unwrap(node);
  if (!ts.isIdentifier(expression)) return undefined;
  const file = expression.getSourceFile();
  const declaration = declarationOf(expression);
  if (!declaration) {
    const imported = importsOf(file).get(expression.text);
    return imported?.module.startsWith('@sluice/shared/') ? imported : undefined;
  }
  const value = definitionOf(declaration);
  return value && !isFunction(value) ? schemaOf(value) : undefined;
}

function fieldOf(shape: Props, where: string): FormField | string {
  const name = shape.get('name');
  const names = name ? valuesOf(name.expression, name.bindings) : [];
  if (names.length !== 1 || names[0]?.includes(ANY)) return 'the name of a field';
  const modes = shape.get('modes');
  let shown: FormField['modes'] = ['create', 'edit'];
  if (modes) {
    const list = elementsOf(modes.expression, modes.bindings)?.flatMap((m) => valuesOf(m.expression, m.bindings));
    if (!list?.every((m) => m === 'create' || m === 'edit')) return 'the modes of a field';
    shown = list;
  }
  const readOnly = shape.get('readOnlyInEdit');
  const readOnlyInEdit = readOnly !== undefined && unwrap(readOnly.expression).kind === ts.SyntaxKind.TrueKeyword;
  return { name: names[0] ?? '', modes: shown, ownRules: shape.has('rules'), readOnlyInEdit, where };
}

/** Every resource form of the console (an object with createSchema, updateSchema and fields), and what could not be read. */
export function consoleForms(): { forms: ConsoleForm[]; unreadable: Unreadable[] } {
  const forms: ConsoleForm[] = [];
  const unreadable: Unreadable[] = [];
  for (const file of consoleFiles()) {
    walk(file, (node) => {
      if (!ts.isObjectLiteralExpression(node)) return;
      const property = (name: string) =>
        node.properties.find(
          (p): p is ts.PropertyAssignment | ts.ShorthandPropertyAssignment =>
            (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && p.name.getText() === name,
        );
      const valueOf = (p: ts.PropertyAssignment | ts.ShorthandPropertyAssignment) =>
        ts.isPropertyAssignment(p) ? p.initializer : p.name;
      const create = property('createSchema');
      const update = property('updateSchema');
      const fieldList = property('fields');
      if (!create || !update || !fieldList) return;
      const at = where(node);
      const createSchema = schemaOf(valueOf(create));
      const updateSchema = schemaOf(valueOf(update));
      if (!createSchema || !updateSchema) {
        unreadable.push({ what: 'the shared schemas of a form', where: at });
        return;
      }
      const elements = elementsOf(valueOf(fieldList), new Map());
      if (!elements) {
        unreadable.push({ what: 'the fields of a form', where: at });
        return;
      }
      const fields: FormField[] = [];
      for (const element of elements) {
        const shapes = objectShapes(element.expression, element.bindings);
        if (!shapes) {
          unreadable.push({ what: 'a field of a form', where: where(element.expression) });
          continue;
        }
        for (const shape of shapes) {
          const field = fieldOf(shape, where(element.expression));
          if (typeof field === 'string') unreadable.push({ what: field, where: where(element.expression) });
          else fields.push(field);
        }
      }
      forms.push({ createSchema, updateSchema, fields, where: at });
    });
  }
  return { forms, unreadable };
}
